# Sourced by build/release.sh and build/publish.sh: the one reading of a
# release version.
#
#   parse_version VERSION
#
# accepts Semantic Versioning 2.0.0 with a leading v, vX.Y.Z or a pre-release
# vX.Y.Z-PRE (v0.3.0-rc.1), without build metadata (+...), which an image tag
# cannot hold; sets minor (vX.Y), major (vX) and prerelease ("-rc.1", or ""
# for a release). Returns 1 for anything else.
parse_version() {
  local num='(0|[1-9][0-9]*)' ident='(0|[1-9][0-9]*|[0-9]*[A-Za-z-][0-9A-Za-z-]*)'
  [[ ${1:-} =~ ^v$num\.$num\.$num(-$ident(\.$ident)*)?$ ]] || return 1
  minor=v${BASH_REMATCH[1]}.${BASH_REMATCH[2]}
  major=v${BASH_REMATCH[1]}
  prerelease=${BASH_REMATCH[4]}
}
