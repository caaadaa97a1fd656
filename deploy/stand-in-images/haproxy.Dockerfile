# Stand-in for the official haproxy image (deploy/stand-in-images/build.sh tags it with the name deploy/compose.yaml
# uses): Debian bookworm's haproxy package, with the official image's config path, user, stop signal and command.
# VERSION is the tag's version; the build fails when Debian's package is another release.
FROM webserialization-stand-in/debian:bookworm
ARG VERSION
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends haproxy \
 && rm -rf /var/lib/apt/lists/* && mkdir -p /usr/local/etc/haproxy \
 && installed=$(dpkg-query -W -f '${Version}' haproxy) \
 && case "$installed" in "$VERSION"[.+~-]*) ;; *) echo "Debian's haproxy is $installed, not $VERSION" >&2; exit 1 ;; esac
STOPSIGNAL SIGUSR1
USER haproxy
CMD ["haproxy", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]
