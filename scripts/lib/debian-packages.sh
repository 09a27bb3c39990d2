# Sourced by the scripts that install Debian packages; defines:
#   debian_missing PKG...   prints the packages that are not fully installed
#   debian_ensure WHO PKG...  installs the missing ones with apt-get (update first), or fails loudly
#
# "Installed" means dpkg's status is exactly "install ok installed". `dpkg -s` alone also
# succeeds for a package that was removed but left its configuration files ("deinstall ok
# config-files"), which is what a machine looks like after `apt-get remove`: checking that way
# skipped the install and failed later.

debian_missing() {
  local pkg status
  for pkg in "$@"; do
    status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
    [ "$status" = "install ok installed" ] || echo "$pkg"
  done
}

debian_ensure() {
  local who="$1"; shift
  local need
  need="$(debian_missing "$@" | tr '\n' ' ')"
  need="${need% }"
  [ -z "$need" ] && return 0
  echo "$who: installing $need" >&2
  local sudo=
  [ "$(id -u)" -ne 0 ] && sudo=sudo
  # The package lists of a new machine are empty or old: always update before installing.
  $sudo apt-get update -qq >&2 || { echo "$who: apt-get update failed" >&2; return 1; }
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends $need >&2 \
    || { echo "$who: apt-get install $need failed" >&2; return 1; }
  need="$(debian_missing "$@" | tr '\n' ' ')"
  [ -z "$need" ] || { echo "$who: still not installed after apt-get: $need" >&2; return 1; }
}
