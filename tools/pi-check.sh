#!/usr/bin/env bash
# make pi-check: dicelens on an emulated 64-bit Pi. In an arm64 Debian Bookworm root
# and an arm64 Debian Trixie root (Raspberry Pi OS's two bases, run by qemu-user-static
# through binfmt_misc), it installs from this checkout with `systemd/install.sh --root`
# (the installer's own steps: venv, pinned wheels, its check), then from the installed
# venv: `dicelens read` on 20 photos of tests/data (compared with this machine's .venv),
# `dicelens resolve` and `odds` cases, and `dicelens serve --camera file:` on 127.0.0.1
# with /healthz and one roll through the API. It prints the Python version, the wheels
# pip got and each step's time: under emulation, many times slower than a real Pi.
#
# Run as root (debootstrap, chroot, mounts). The roots live in PI_CHECK_DIR (default
# /var/tmp/dicelens-pi-check), reused when their stamp says they are complete.
# PI_CHECK_SUITES (default "bookworm trixie") checks one of them only.
# Not run by .ci/run: the emulation is slow. Run it with nice (make pi-check does).
set -euo pipefail
trap 'echo "pi-check: failed at line $LINENO: $BASH_COMMAND" >&2' ERR
cd "$(dirname "$0")/.."
repo=$(pwd)
readonly MIRROR=http://deb.debian.org/debian
readonly SUITES=${PI_CHECK_SUITES:-bookworm trixie} # one of them: PI_CHECK_SUITES=trixie
readonly PORT=8765
base=${PI_CHECK_DIR:-/var/tmp/dicelens-pi-check}
log() { echo "pi-check: $*"; }
fail() { echo "pi-check: $*" >&2; exit 1; }
[ "$(id -u)" = 0 ] || fail "run it as root (debootstrap, chroot and mounts need it): sudo make pi-check"

# Runs "$@" and prints how long it took, as "step <name>: N s".
timed() {
  local name=$1 start end
  shift
  start=$(date +%s)
  "$@"
  end=$(date +%s)
  log "step $name: $((end - start)) s (emulated arm64: not a Pi's speed)"
}

emulation() {
  export DEBIAN_FRONTEND=noninteractive
  if ! command -v qemu-aarch64-static >/dev/null || ! command -v debootstrap >/dev/null; then
    apt-get update -qq && apt-get install -y -qq qemu-user-static debootstrap >/dev/null
  fi
  [ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
  if [ ! -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ]; then
    # Debian's entry for arm64 ELF files, with F (the host's qemu, opened now, runs
    # them inside any root: nothing to copy in).
    printf '%s' ':qemu-aarch64:M::\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x02\x00\xb7\x00:\xff\xff\xff\xff\xff\xff\xff\x00\xff\xff\xff\xff\xff\xff\xff\xff\xfe\xff\xff\xff:/usr/bin/qemu-aarch64-static:F' \
      >/proc/sys/fs/binfmt_misc/register
  fi
}

# The root of $1 in $root, made by debootstrap unless its stamp is there.
make_root() {
  local suite=$1
  [ -e "$root/.dicelens-pi-check-ready" ] && { log "$suite: reusing $root"; return; }
  rm -rf "$root"
  mkdir -p "$root"
  debootstrap --arch=arm64 --variant=minbase --include=python3,python3-venv,ca-certificates \
    "$suite" "$root" "$MIRROR" >"$root.debootstrap.log" 2>&1 \
    || fail "debootstrap $suite failed: $(tail -n 3 "$root.debootstrap.log")"
  touch "$root/.dicelens-pi-check-ready"
}

mounts() {
  mount -t proc proc "$root/proc"
  # No /sys: onnxruntime then warns that it cannot count the processors; with the
  # host's (x86-64) /sys, `dicelens read` crashed under qemu (signal 11).
  mount --rbind /dev "$root/dev"
  cp /etc/resolv.conf "$root/etc/resolv.conf" # pip reaches PyPI from inside...
  # ...trusting the host's own certificate authorities (a proxy's, say) as the host does.
  if [ -d /usr/local/share/ca-certificates ]; then
    mkdir -p "$root/usr/local/share/ca-certificates"
    cp -r /usr/local/share/ca-certificates/. "$root/usr/local/share/ca-certificates/"
    in_root update-ca-certificates >/dev/null
  fi
}

unmount() {
  [ -n "${root:-}" ] || return 0
  umount -R "$root/dev" 2>/dev/null || true
  umount "$root/proc" 2>/dev/null || true
}
trap unmount EXIT

in_root() {
  chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"
}

# The photos read: 20 of tests/data's d6 photos, every second in name order.
photos() {
  find tests/data/real-dice -name '*.jpg' | LC_ALL=C sort | awk 'NR % 2 == 1' | head -n 20
}

# Each photo's file and dice values, one line each (the timings left out).
values() {
  python3 -c '
import json, sys
for line in sys.stdin:
    reading = json.loads(line)
    print(reading["file"], [d["value"] for d in reading["dice"]])'
}

install_in_root() {
  rm -rf "$root/root/dicelens" "$root/root/pi"
  mkdir -p "$root/root/dicelens"
  git -C "$repo" archive HEAD | tar -x -C "$root/root/dicelens"
  in_root sh -c 'cd /root/dicelens && systemd/install.sh --root /root/pi'
}

read_photos() {
  # shellcheck disable=SC2046 # one argument per photo: their names have no spaces
  in_root sh -c 'cd /root/dicelens && /root/pi/opt/dicelens/venv/bin/dicelens read "$@"' sh $(photos) \
    >"$root/root/read.jsonl"
}

rules() {
  local dicelens=/root/pi/opt/dicelens/venv/bin/dicelens
  in_root "$dicelens" resolve d6 --kind D6 --dice 6,4
  in_root "$dicelens" resolve pool --dice 1,3,5,10 --difficulty 6
  in_root "$dicelens" resolve attack --attacker-die d8 --attack 7 --attack-d20 12 \
    --defence-die d6 --defence 4 --defence-d20 9
  in_root "$dicelens" odds d6 --kind D6 --count 2 | cut -c1-160
  in_root "$dicelens" odds pool --dice 5 --difficulty 6 | cut -c1-160
}

# serve on 127.0.0.1, /healthz, then one 2d6 roll armed and given through the API.
serve() {
  rm -rf "$root/root/serve-data" # a history of its own each run: the roll given is roll 1
  in_root /root/pi/opt/dicelens/venv/bin/python - "$PORT" <<'EOF'
import json, subprocess, sys, time, urllib.request
port = sys.argv[1]
base = f"http://127.0.0.1:{port}"
server = subprocess.Popen(["/root/pi/opt/dicelens/venv/bin/dicelens", "serve", "--host", "127.0.0.1",
                           "--port", port, "--data", "/root/serve-data",
                           "--camera", "file:/root/dicelens/tests/data/real-dice/byler-tray-d6"])
def call(path, body=None):
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(base + path, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=120) as response:
        return response.status, json.load(response)
try:
    for _ in range(600):  # serve starts in seconds on a Pi, in minutes under emulation
        try:
            status, health = call("/healthz")
            break
        except OSError:
            if server.poll() is not None:
                sys.exit(f"dicelens serve ended with status {server.returncode}")
            time.sleep(1)
    else:
        sys.exit("/healthz did not answer")
    print(f"/healthz: {status} {json.dumps(health)[:200]}")
    call("/api/arm", {"preset": "2d6", "roller": "pi-check"})
    status, state = call("/api/dice", {"values": [5, 2]})
    status, rolls = call("/api/rolls")
    roll = rolls["rolls"][0]
    print(f"/api/rolls: {status}, roll {roll['id']}: {roll['preset']} total {roll['total']} "
          f"complete {roll['complete']} by {roll['roller']}")
    if not (health["healthy"] and roll["id"] == 1 and roll["total"] == 7 and roll["complete"]):
        sys.exit("the served roll is not the one given")
finally:
    server.terminate()
    server.wait(timeout=120)
EOF
}

check_suite() {
  local suite=$1
  root=$base/$suite
  log "== arm64 Debian $suite: $root"
  mounts
  log "$suite: $(in_root python3 --version), $(in_root uname -m)"
  timed "$suite install.sh --root" install_in_root
  log "$suite: wheels got: $(in_root /root/pi/opt/dicelens/venv/bin/python -m pip list --format=freeze \
    --disable-pip-version-check 2>/dev/null | grep -Ei '^(numpy|opencv-python-headless|onnxruntime|flask|flask-babel|waitress|icepool|pillow)=' | tr '\n' ' ')"
  timed "$suite read of 20 photos" read_photos
  if diff <(values <"$root/root/read.jsonl") "$base/x86.values" >"$root.read.diff"; then
    log "$suite: the readings of all $(grep -c . "$base/x86.values") photos are those of x86-64"
  else
    log "$suite: readings differing from x86-64 (< arm64, > x86-64):"
    cat "$root.read.diff"
  fi
  timed "$suite resolve and odds" rules
  timed "$suite serve, /healthz, one roll" serve
  unmount
  root=""
}

emulation
mkdir -p "$base"
for suite in $SUITES; do
  root=$base/$suite
  timed "$suite root (debootstrap)" make_root "$suite"
done
root=""
[ -x .venv/bin/dicelens ] || fail "no .venv here: make test first (the x86 readings to compare with)"
# shellcheck disable=SC2046
.venv/bin/dicelens read $(photos) | values >"$base/x86.values"
log "x86-64: $(.venv/bin/python --version), read $(grep -c . "$base/x86.values") photos"
for suite in $SUITES; do
  check_suite "$suite"
done
log "passed on arm64 $SUITES (emulated by qemu-user, not a real Pi)"
