# Sourced by the scripts that run local servers on 127.0.0.1 (scripts/kinto, scripts/rails-server,
# scripts/postgres): their shared lifecycle. Each caller sets SERVER_NAME (the prefix of its
# messages) before sourcing; the pid helpers use the caller's PID_FILE, server_fail_start its
# LOG_FILE and its `do_stop`. Defines:
#   server_log MSG…            a message on stderr, prefixed with SERVER_NAME
#   server_die MSG…            the same, then exit 1
#   server_usage SCRIPT        prints the comment block at the top of SCRIPT
#   server_read_pid            the pid in PID_FILE, or fails
#   server_is_running          whether that pid is alive
#   server_free_port           a free TCP port on 127.0.0.1
#   server_port_in_use PORT    whether PORT on 127.0.0.1 is taken
#   server_http_status URL     the HTTP status of GET URL ("000" when unreachable)
#   server_spawn CMD…          starts CMD in its own session (so a stop ends its children), stdin
#                              closed and output appended to LOG_FILE, never the caller's stdout
#                              (so `URL=$(scripts/x start)` returns); prints its pid
#   server_wait_http PID URL SECONDS   waits until GET URL answers 200 while PID lives; fails the
#                              start (server_fail_start) when PID exits or time runs out
#   server_stop_pid PID        TERM to PID's process group (or PID), KILL after 5 s
#   server_fail_start MSG      says why, shows the end of LOG_FILE, stops (do_stop), exit 1

server_log() { echo "$SERVER_NAME: $*" >&2; }
server_die() { server_log "$*"; exit 1; }

server_usage() {
  sed -n '2,/^set -euo/p' "$1" | grep '^#' | sed 's/^# \{0,1\}//' >&2
}

server_read_pid() {
  [ -f "$PID_FILE" ] || return 1
  local pid
  pid="$(tr -dc '0-9' <"$PID_FILE")"
  [ -n "$pid" ] || return 1
  echo "$pid"
}

server_is_running() {
  local pid
  pid="$(server_read_pid)" || return 1
  kill -0 "$pid" 2>/dev/null
}

server_free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

server_port_in_use() {
  python3 - "$1" <<'PY'
import socket, sys
s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
try:
    s.bind(("127.0.0.1", int(sys.argv[1])))
except OSError:
    sys.exit(0)
finally:
    s.close()
sys.exit(1)
PY
}

server_http_status() {
  if command -v curl >/dev/null 2>&1; then
    curl -s -o /dev/null -m 2 -w '%{http_code}' "$1" 2>/dev/null || true
  else
    python3 - "$1" <<'PY' 2>/dev/null || echo 000
import sys, urllib.request, urllib.error
try:
    print(urllib.request.urlopen(sys.argv[1], timeout=2).status)
except urllib.error.HTTPError as e:
    print(e.code)
except Exception:
    print("000")
PY
  fi
}

server_spawn() {
  local starter=()
  if command -v setsid >/dev/null 2>&1; then starter=(setsid); fi
  ${starter[@]+"${starter[@]}"} "$@" </dev/null >>"$LOG_FILE" 2>&1 &
  echo "$!"
}

server_wait_http() {
  local pid="$1" url="$2" seconds="$3" i code=000
  for i in $(seq 1 $(( seconds * 5 ))); do
    kill -0 "$pid" 2>/dev/null || server_fail_start "the server (pid $pid) exited during startup"
    code="$(server_http_status "$url")"
    if [ "$code" = "200" ] && kill -0 "$pid" 2>/dev/null; then return 0; fi
    sleep 0.2
  done
  server_fail_start "timed out waiting for $url (last status $code)"
}

server_stop_pid() {
  local pid="$1" pgid i
  kill -0 "$pid" 2>/dev/null || return 0
  pgid="$(ps -o pgid= -p "$pid" 2>/dev/null | tr -dc '0-9' || true)"
  local target="$pid"
  if [ -n "$pgid" ] && [ "$pgid" = "$pid" ]; then target="-$pgid"; fi
  kill -TERM -- "$target" 2>/dev/null || true
  for i in $(seq 1 50); do
    kill -0 "$pid" 2>/dev/null || return 0
    sleep 0.1
  done
  kill -KILL -- "$target" 2>/dev/null || true
}

server_fail_start() {
  server_log "$1"
  if [ -f "$LOG_FILE" ]; then
    server_log "---- last lines of $LOG_FILE ----"
    tail -n 40 "$LOG_FILE" >&2 || true
  fi
  do_stop >/dev/null 2>&1 || true
  exit 1
}
