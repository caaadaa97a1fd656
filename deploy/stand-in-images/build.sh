#!/usr/bin/env bash
# Builds local stand-ins for the images this repository names, for a machine whose Docker engine cannot pull from a
# registry, tagged with the official names so the Dockerfile and deploy/compose.yaml run unchanged:
# - the Dockerfile's base images (mcr.microsoft.com/dotnet/sdk and .../aspnet): a Debian bookworm root made by
#   debootstrap with this machine's .NET SDK or runtime copied in, and the settings of Microsoft's images
#   (docs/docker.md says how they differ);
# - the third-party images deploy/compose.yaml names (haproxy, prom/prometheus): NAME.Dockerfile beside this script
#   installs Debian bookworm's NAME package over that Debian root, with the official image's user, paths and
#   command. Debian ships HAProxy 2.6 and Prometheus 2.42, so the compose file's tags stay at those releases (a tag of
#   another release fails the build). The official images hold upstream's builds instead, haproxy's on Debian slim
#   and prometheus's on BusyBox, and haproxy:2.6 follows upstream's newest 2.6 patch release, where Debian's package
#   is bookworm's own 2.6 with Debian's fixes.
# The tags come from the Dockerfile's FROM lines and the compose file's image: lines, so they cannot drift. Cached:
# the images carry a label with a hash of these scripts, the .NET version and the CA certificates, and are rebuilt
# only when that changes. An image of one of these names without the label was pulled from a registry: it is used
# as it is, never replaced.
#
#   deploy/stand-in-images/build.sh            start the engine if needed, then build what is missing
#   deploy/stand-in-images/build.sh --engine   only make sure an engine and Compose answer (installs docker.io,
#                                              debootstrap and docker-compose with apt-get where they are missing)
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
log() { printf '[stand-in-images] %s\n' "$*" >&2; }

ensure_engine() {
  if docker info >/dev/null 2>&1; then return; fi
  if ! command -v dockerd >/dev/null 2>&1 || ! command -v debootstrap >/dev/null 2>&1; then
    log "installing docker.io and debootstrap with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker.io debootstrap >/dev/null
  fi
  if ! docker info >/dev/null 2>&1; then
    log "starting dockerd (log: /var/log/webserialization-dockerd.log)"
    nohup dockerd >/var/log/webserialization-dockerd.log 2>&1 &
    for _ in $(seq 1 60); do docker info >/dev/null 2>&1 && return; sleep 1; done
    log "dockerd did not answer within 60 s; see /var/log/webserialization-dockerd.log"
    exit 1
  fi
}

# Compose: v2 (docker compose) where the CLI has it, else Debian's docker-compose (Compose v1; Debian serves no v2).
ensure_compose() {
  if command -v docker-compose >/dev/null 2>&1 || docker compose version >/dev/null 2>&1; then return; fi
  log "installing docker-compose with apt-get"
  apt-get update -qq
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq docker-compose >/dev/null
}

ensure_engine
ensure_compose
[ "${1:-}" = "--engine" ] && exit 0

sdk_tag=$(awk '$1 == "FROM" && $2 ~ /dotnet\/sdk:/ { print $2; exit }' "$repo/Dockerfile")
runtime_tag=$(awk '$1 == "FROM" && $2 ~ /dotnet\/aspnet:/ { print $2; exit }' "$repo/Dockerfile")
sdk_version=${sdk_tag##*:}
runtime_version=${runtime_tag##*:}
# The compose file's image of NAME (the last part of its repository's name), e.g. prometheus: prom/prometheus:v2.42.0.
compose_image() {
  awk -v name="$1" '$1 == "image:" { repository = $2; sub(/:[^\/]*$/, "", repository); sub(/.*\//, "", repository); if (repository == name) { print $2; exit } }' "$repo/deploy/compose.yaml"
}

certificates=(/usr/local/share/ca-certificates/*.crt)
[ -e "${certificates[0]}" ] || certificates=()
key=$( { cat "$0" "$here"/*.Dockerfile; echo "$sdk_version $runtime_version"; cat "${certificates[@]}" /dev/null; } | sha256sum | cut -c1-16)
label=org.webserialization.stand-in
current() { [ "$(docker image inspect -f "{{ index .Config.Labels \"$label\" }}" "$1" 2>/dev/null)" = "$key" ]; }
# An image of that name without the label was pulled from the registry (or built by someone else): never replace it.
pulled() { docker image inspect "$1" >/dev/null 2>&1 && [ -z "$(docker image inspect -f "{{ index .Config.Labels \"$label\" }}" "$1" 2>/dev/null)" ]; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mirror=$(awk '/^URIs:/ { print $2; exit }' /etc/apt/sources.list.d/debian.sources 2>/dev/null || true)
mirror=${mirror:-http://deb.debian.org/debian}

base_tag=webserialization-stand-in/debian:bookworm
ensure_base() {
  current "$base_tag" && return
  if ! command -v debootstrap >/dev/null 2>&1; then
    log "installing debootstrap with apt-get"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq debootstrap >/dev/null
  fi
  log "debootstrap bookworm from $mirror (a minute or two)"
  # What Microsoft's Debian runtime images install beside the base: certificates, ICU, OpenSSL, time zones, zlib.
  debootstrap --variant=minbase --include=ca-certificates,libicu72,libssl3,tzdata,zlib1g bookworm "$work/root" "$mirror" >"$work/debootstrap.log" 2>&1 \
    || { tail -n 20 "$work/debootstrap.log" >&2; exit 1; }
  rm -rf "$work/root/var/cache/apt/archives/"*.deb "$work/root/var/lib/apt/lists/"*
  tar -C "$work/root" -c . | docker import --change "LABEL $label=$key" --change 'CMD ["bash"]' - "$base_tag" >/dev/null
  rm -rf "$work/root"
}

build_dotnet_images() {
  local dotnet_root
  dotnet_root=$(dirname "$(readlink -f "$(command -v dotnet)")")
  [ -d "$dotnet_root/sdk/$sdk_version" ] || { log "this machine has no .NET SDK $sdk_version (the Dockerfile's $sdk_tag)"; exit 1; }
  [ -d "$dotnet_root/shared/Microsoft.AspNetCore.App/$runtime_version" ] || { log "this machine has no ASP.NET Core runtime $runtime_version (the Dockerfile's $runtime_tag)"; exit 1; }
  ensure_base
  # The runtime image: the muxer, the host and the two shared frameworks, user app (uid 1654), Microsoft's variables.
  mkdir -p "$work/runtime/dotnet/shared"
  cp -a "$dotnet_root/dotnet" "$dotnet_root/host" "$dotnet_root/LICENSE.txt" "$work/runtime/dotnet/"
  cp -a "$dotnet_root/shared/Microsoft.NETCore.App" "$dotnet_root/shared/Microsoft.AspNetCore.App" "$work/runtime/dotnet/shared/"
  find "$work/runtime/dotnet/shared" -mindepth 2 -maxdepth 2 -type d ! -name "$runtime_version" -exec rm -rf {} +
  cat >"$work/runtime/Dockerfile" <<DOCKERFILE
FROM $base_tag
COPY dotnet /usr/share/dotnet
RUN ln -s /usr/share/dotnet/dotnet /usr/bin/dotnet \
 && groupadd --gid 1654 app && useradd --uid 1654 --gid 1654 --no-create-home --shell /bin/false app
ENV APP_UID=1654 \
    ASPNETCORE_HTTP_PORTS=8080 \
    DOTNET_RUNNING_IN_CONTAINER=true \
    DOTNET_VERSION=$runtime_version \
    ASPNET_VERSION=$runtime_version
LABEL $label=$key
DOCKERFILE
  log "building $runtime_tag"
  docker build -q -t "$runtime_tag" "$work/runtime" >/dev/null
  rm -rf "$work/runtime"

  # The SDK image: the whole SDK over the runtime image, and this machine's extra CA certificates, through which
  # its NuGet traffic goes (a restore inside the build reaches NuGet with them).
  mkdir -p "$work/sdk/certificates"
  cp -a "$dotnet_root" "$work/sdk/dotnet"
  for certificate in "${certificates[@]}"; do cp "$certificate" "$work/sdk/certificates/"; done
  cat >"$work/sdk/Dockerfile" <<DOCKERFILE
FROM $runtime_tag
COPY dotnet /usr/share/dotnet
COPY certificates /usr/local/share/ca-certificates
RUN update-ca-certificates >/dev/null
ENV DOTNET_SDK_VERSION=$sdk_version \
    DOTNET_GENERATE_ASPNET_CERTIFICATE=false \
    DOTNET_NOLOGO=true \
    DOTNET_USE_POLLING_FILE_WATCHER=true \
    NUGET_XMLDOC_MODE=skip \
    NUGET_CERT_REVOCATION_MODE=offline
LABEL $label=$key
DOCKERFILE
  log "building $sdk_tag"
  docker build -q -t "$sdk_tag" "$work/sdk" >/dev/null
  rm -rf "$work/sdk"
  log "built $runtime_tag and $sdk_tag ($key)"
}

# NAME.Dockerfile over the Debian root, tagged as the compose file's NAME image. Its apt-get reaches the Debian
# mirror through the host's network, as debootstrap did.
build_package_image() {
  local file=$1 tag=$2 version=${2##*:}
  ensure_base
  log "building $tag from Debian's package"
  docker build --network host --build-arg "VERSION=${version#v}" --label "$label=$key" -t "$tag" - <"$file" >"$work/build.log" 2>&1 \
    || { tail -n 20 "$work/build.log" >&2; log "$(basename "$file") did not build"; exit 1; }
}

if pulled "$sdk_tag" && pulled "$runtime_tag"; then
  log "using the pulled $runtime_tag and $sdk_tag"
elif pulled "$sdk_tag" || pulled "$runtime_tag"; then
  log "only one of $runtime_tag and $sdk_tag is a pulled image; pull the other too, or remove it to use stand-ins"
  exit 1
elif current "$sdk_tag" && current "$runtime_tag"; then
  log "up to date: $runtime_tag and $sdk_tag ($key)"
else
  build_dotnet_images
fi

for file in "$here"/*.Dockerfile; do
  name=$(basename "$file" .Dockerfile)
  tag=$(compose_image "$name")
  [ -n "$tag" ] || { log "deploy/compose.yaml names no $name image for $(basename "$file")"; exit 1; }
  if pulled "$tag"; then
    log "using the pulled $tag"
  elif current "$tag"; then
    log "up to date: $tag ($key)"
  else
    build_package_image "$file" "$tag"
  fi
done
