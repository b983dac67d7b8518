#!/usr/bin/env bash
# Install dicelens from this checkout as a systemd service, on Raspberry Pi OS
# (or any Debian with systemd). Running it again updates the installation and
# keeps the settings: the new version gets a venv of its own beside the running
# one, is checked, and only then replaces it (the previous one is kept, for
# --rollback); --uninstall removes it and keeps the roll history.
#
#   sudo systemd/install.sh                 install or update, start at boot
#   sudo systemd/install.sh --rollback      go back to the version before the last update
#   sudo systemd/install.sh --uninstall     remove the service and its venvs
#   sudo systemd/install.sh --uninstall --purge   also the settings, history, user
#   systemd/install.sh --root DIR           dry run: write every file under DIR,
#                                           print the user and systemctl commands
#
# Environment: PYTHON (default /usr/bin/python3, whose system packages such as
# python3-picamera2 the venv sees); DICELENS_PIP_OPTIONS, more options for
# pip install (e.g. "--no-deps" or "--no-index --find-links DIR" offline).
set -euo pipefail
umask 022 # the venv and the unit must be readable by the service user

readonly USER_NAME=dicelens
readonly GROUPS_WANTED="video gpio" # own the camera and GPIO devices on Raspberry Pi OS
readonly APP_DIR=/opt/dicelens
# One venv per installed version in releases/; venv (the unit's path) links to the
# running one, previous to the one before it.
readonly RELEASES_DIR=$APP_DIR/releases
readonly VENV_DIR=$APP_DIR/venv
readonly PREVIOUS_DIR=$APP_DIR/previous
# The new version's check reads this photo (tests/data: a sample of real tray photos).
readonly CHECK_PHOTO=tests/data/real-dice/byler-tray-d6/IMG_20191208_112332.jpg
readonly CONFIG_DIR=/etc/dicelens
readonly STATE_DIR=/var/lib/dicelens
readonly UNIT=dicelens.service
readonly HOTSPOT_UNIT=dicelens-hotspot.service # the table's own Wi-Fi, at boot ([hotspot] in the config)
readonly UNIT_DIR=/etc/systemd/system

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
checkout=$(dirname "$here")
python=${PYTHON:-/usr/bin/python3}
read -r -a pip_options <<<"${DICELENS_PIP_OPTIONS:-}"
root=""
mode=install
purge=no

usage() {
  sed -n '2,18s/^# \{0,1\}//p' "${BASH_SOURCE[0]}"
}

fail() {
  echo "install.sh: $*" >&2
  exit 1
}

while [ $# -gt 0 ]; do
  case $1 in
    --root)
      [ $# -ge 2 ] || fail "--root needs a folder"
      [ ! -e "$2" ] || [ -d "$2" ] || fail "--root $2: not a folder"
      root=$(realpath -m "$2")
      shift 2
      ;;
    --uninstall) mode=uninstall; shift ;;
    --rollback) mode=rollback; shift ;;
    --purge) purge=yes; shift ;;
    -h | --help) usage; exit 0 ;;
    *) usage >&2; fail "unknown option: $1" ;;
  esac
done
[ "$purge" = no ] || [ "$mode" = uninstall ] || fail "--purge goes with --uninstall"
if [ -z "$root" ] && [ "$(id -u)" -ne 0 ]; then
  fail "run it as root: sudo $0 $*"
fi

# A command that changes the real system's users or services: run it, or with
# --root print it, since a dry run must leave the real system alone.
system() {
  if [ -n "$root" ]; then
    printf 'would run:'
    printf ' %q' "$@"
    printf '\n'
  else
    "$@"
  fi
}

say() {
  echo "dicelens: $*"
}

install_user() {
  if id -u "$USER_NAME" >/dev/null 2>&1; then
    say "user $USER_NAME exists"
  else
    say "creating the system user $USER_NAME"
    system useradd --system --user-group --home-dir "$STATE_DIR" --no-create-home \
      --shell /usr/sbin/nologin --comment "dicelens service" "$USER_NAME"
  fi
  local group
  for group in $GROUPS_WANTED; do
    if getent group "$group" >/dev/null; then
      system usermod --append --groups "$group" "$USER_NAME"
    else
      say "warning: no group $group here (Raspberry Pi OS has it: it owns the camera or GPIO devices)"
    fi
  done
}

# Keep numpy's major version at the system's: Debian's compiled packages
# (picamera2 needs simplejpeg) break with a numpy 2 in the venv on a numpy 1 system.
numpy_constraint() {
  local major
  major=$("$python" -c 'import numpy; print(numpy.__version__.split(".")[0])' 2>/dev/null) || return 0
  echo "numpy<$((major + 1))"
}

# Builds the new version's venv in releases/ and names it in $release. The
# running version is not touched.
build_release() {
  local venv constraints source problem
  install -d -m 0755 "$root$RELEASES_DIR"
  release=$(date -u +%Y%m%dT%H%M%SZ)
  while [ -e "$root$RELEASES_DIR/$release" ]; do release=$release+; done # two updates within a second
  venv=$root$RELEASES_DIR/$release
  say "creating the venv $RELEASES_DIR/$release (with the system's packages, for python3-picamera2)"
  "$python" -m venv --system-site-packages "$venv"
  constraints=$(mktemp)
  numpy_constraint >"$constraints"
  # Built from a clean copy: setuptools would leave build/ in the checkout and
  # package whatever stale files it held.
  source=$(mktemp -d)
  tar -C "$checkout" --exclude=.git --exclude=.venv --exclude=build --exclude=data \
    --exclude='*.egg-info' --exclude=__pycache__ -cf - . | tar -C "$source" -xf -
  say "installing dicelens from $checkout"
  # constraints.txt: the exact versions the tests passed with, for this Python.
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --upgrade \
    --constraint "$checkout/constraints.txt" --constraint "$constraints" \
    ${pip_options[@]+"${pip_options[@]}"} "$source" || {
    rm -rf "$constraints" "$source" "$venv"
    fail "pip could not install this version; the running one was left as it is"
  }
  rm -rf "$constraints" "$source"
  # Real imports, so that a numpy the system's picamera2 cannot load shows up too.
  local module package
  for module in picamera2:python3-picamera2 lgpio:python3-lgpio; do
    package=${module#*:}
    module=${module%%:*}
    if ! problem=$("$venv/bin/python" -c "import $module" 2>&1); then
      say "warning: the venv cannot import $module (${problem##*$'\n'});" \
        "on the Pi: sudo apt install $package --no-install-recommends, then run this again"
    fi
  done
}

# The new venv runs and reads a photo; else it is removed and the running version stays.
check_release() {
  local venv=$root$RELEASES_DIR/$release problem
  if ! problem=$("$venv/bin/dicelens" --version 2>&1) \
    || ! problem=$("$venv/bin/dicelens" read "$checkout/$CHECK_PHOTO" 2>&1) \
    || [[ $problem != *'"value"'* ]]; then
    rm -rf "$venv"
    fail "the new version failed its check (${problem##*$'\n'}); the running one was left as it is"
  fi
  say "checked the new version: it runs and reads a photo"
}

# Points $1 (venv or previous) at the release named $2 in one rename, so that it
# never dangles. Relative links: right under --root too.
link() {
  ln -sfn "releases/$2" "$root$1.new"
  mv -T "$root$1.new" "$root$1"
}

# The release venv or previous links to, or nothing.
target() {
  if [ -L "$root$1" ]; then
    basename "$(readlink "$root$1")"
  fi
}

# The checked release becomes the running one and the running one the previous;
# older releases are removed.
switch_release() {
  local running kept
  if [ -d "$root$VENV_DIR" ] && [ ! -L "$root$VENV_DIR" ]; then
    # A venv of an install.sh before releases/: kept as the previous version. Its
    # scripts name /opt/dicelens/venv/bin/python, right again once venv links back to it.
    say "moving the venv of the old layout to $RELEASES_DIR/before-releases"
    rm -rf "$root$RELEASES_DIR/before-releases"
    mv -T "$root$VENV_DIR" "$root$RELEASES_DIR/before-releases"
    link "$VENV_DIR" before-releases
  fi
  running=$(target "$VENV_DIR")
  link "$VENV_DIR" "$release"
  if [ -n "$running" ]; then
    link "$PREVIOUS_DIR" "$running"
  fi
  say "running version: $RELEASES_DIR/$release${running:+ (previous: $running, kept for --rollback)}"
  for kept in "$root$RELEASES_DIR"/*; do
    case $(basename "$kept") in
      "$release" | "$running") ;;
      *) rm -rf "$kept" ;;
    esac
  done
}

write_default_config() {
  local config=$root$CONFIG_DIR/config.toml
  if [ -e "$config" ]; then
    say "keeping the settings in $CONFIG_DIR/config.toml"
    return
  fi
  say "writing the default settings to $CONFIG_DIR/config.toml"
  install -d -m 0755 "$root$CONFIG_DIR"
  cat >"$config" <<'EOF'
# dicelens settings; every key and its default: device/config.py.
# After a change: sudo systemctl restart dicelens
# (a flag of "dicelens serve" beats its key here; the service passes only --config)
pin = ""                  # 4 to 12 digits every control asks for: arming, throwing, corrections, settings…
pin_from_page = false     # with pin = "": may the settings page set one? (any phone on the Wi-Fi could)
principal_color = "red"   # colour of the principal die
# History and photos. The service may write only in /var/lib/dicelens: another
# folder (outside /home, owned by the user dicelens) also needs
# "sudo systemctl edit dicelens": [Service] ReadWritePaths=/that/folder
data_folder = "/var/lib/dicelens"

[camera]
source = "picamera2"      # picamera2 | usb:0 (first USB camera) | file:PATH | sim

[web]
host = "0.0.0.0"          # every phone on the local network may open the page
port = 8000

[hotspot]                 # the Pi's own Wi-Fi when no known network is in reach (README.md)
enabled = false
ssid = "dicelens"
password = ""             # 8 to 63 characters, needed when enabled

[buttons]                 # BCM pin numbers (see the wiring table in README.md)
presets = { "2d6" = 17, "1d6" = 27, "free" = 22 }
read_now = 23
led = 24
EOF
  # It may hold the PIN: readable by the service, not by every user.
  chmod 0640 "$config"
  system chown "root:$USER_NAME" "$CONFIG_DIR/config.toml"
}

install_unit() {
  say "installing $UNIT_DIR/$UNIT and $HOTSPOT_UNIT"
  install -d -m 0755 "$root$UNIT_DIR"
  install -m 0644 "$here/$UNIT" "$root$UNIT_DIR/$UNIT"
  install -m 0644 "$here/$HOTSPOT_UNIT" "$root$UNIT_DIR/$HOTSPOT_UNIT"
  system systemctl daemon-reload
  system systemctl enable "$UNIT" "$HOTSPOT_UNIT"
  system systemctl reset-failed "$UNIT"
  system systemctl restart "$UNIT"
}

web_port() {
  "$root$VENV_DIR/bin/python" - "$root$CONFIG_DIR/config.toml" <<'EOF' 2>/dev/null || echo 8000
import sys, tomllib
with open(sys.argv[1], "rb") as file:
    print(tomllib.load(file).get("web", {}).get("port", 8000))
EOF
}

install_all() {
  local release
  install_user
  build_release
  check_release
  write_default_config
  switch_release
  install_unit
  local host
  host=$(uname -n)
  say "installed. Open http://${host%%.*}.local:$(web_port) on a phone on the same network."
  say "status: systemctl status dicelens    log: journalctl -u dicelens"
}

uninstall_all() {
  if [ -e "$root$UNIT_DIR/$UNIT" ]; then
    say "stopping and removing the service"
    system systemctl disable --now "$UNIT" "$HOTSPOT_UNIT"
    rm -f "$root$UNIT_DIR/$UNIT" "$root$UNIT_DIR/$HOTSPOT_UNIT"
    system systemctl daemon-reload
  fi
  rm -rf "$root$APP_DIR"
  if [ "$purge" = yes ]; then
    say "removing the settings, the roll history and the user $USER_NAME"
    rm -rf "$root$CONFIG_DIR" "$root$STATE_DIR"
    if id -u "$USER_NAME" >/dev/null 2>&1 || [ -n "$root" ]; then
      system userdel "$USER_NAME"
    fi
  else
    say "kept the settings ($CONFIG_DIR) and the roll history ($STATE_DIR): --purge removes them"
  fi
  say "uninstalled"
}

rollback() {
  local running previous
  running=$(target "$VENV_DIR")
  previous=$(target "$PREVIOUS_DIR")
  if [ -z "$previous" ] || [ ! -d "$root$RELEASES_DIR/$previous" ]; then
    fail "no previous version to go back to"
  fi
  link "$VENV_DIR" "$previous"
  link "$PREVIOUS_DIR" "$running"
  say "running version: $previous (the one it replaced, $running, is now the previous)"
  system systemctl restart "$UNIT"
}

case $mode in
  install) install_all ;;
  rollback) rollback ;;
  uninstall) uninstall_all ;;
esac
