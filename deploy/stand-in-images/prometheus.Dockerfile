# Stand-in for the official prom/prometheus image (deploy/stand-in-images/build.sh tags it with the name
# deploy/compose.yaml uses): Debian bookworm's prometheus package, with the official image's user, data volume,
# entry point and arguments. VERSION is the tag's version; the build fails when Debian's package is another release.
FROM webserialization-stand-in/debian:bookworm
ARG VERSION
RUN apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus \
 && rm -rf /var/lib/apt/lists/* && mkdir -p /prometheus && chown nobody:nogroup /prometheus \
 && installed=$(dpkg-query -W -f '${Version}' prometheus) \
 && case "$installed" in "$VERSION"[.+~-]*) ;; *) echo "Debian's prometheus is $installed, not $VERSION" >&2; exit 1 ;; esac
USER nobody
VOLUME ["/prometheus"]
WORKDIR /prometheus
EXPOSE 9090
ENTRYPOINT ["/usr/bin/prometheus"]
CMD ["--config.file=/etc/prometheus/prometheus.yml", "--storage.tsdb.path=/prometheus"]
