#!/usr/bin/env bash
# A full staged firmware update with a maintenance window, driven through the
# control API's clock: what "Testing your tool against it" in docs/control-api.md runs.
#
#   examples/staged-update.sh            starts its own service (temporary data dir), runs, stops it
#
# Environment: BMC_PORT (default 18444). Needs curl and jq. Exits non-zero at the first
# check that fails; prints PASS at the end.
set -euo pipefail
cd "$(dirname "$0")/.."

PORT="${BMC_PORT:-18444}"
PASSWORD='Example-Admin-Pass-1'
DIR="$(mktemp -d)"
URL="https://127.0.0.1:${PORT}"
CONN=(--url "$URL" --user Administrator --password "$PASSWORD" --insecure)
cli() { node --import tsx src/cli.ts "$@"; }
control() { cli control "$@" "${CONN[@]}"; }
redfish() { # method path [json]
  local args=(-sk -u "Administrator:${PASSWORD}" -X "$1" "${URL}$2")
  if [ $# -ge 3 ]; then args+=(-H 'Content-Type: application/json' -d "$3"); fi
  curl "${args[@]}"
}
check() { # description, actual, expected
  if [ "$2" != "$3" ]; then echo "FAIL: $1: got '$2', expected '$3'" >&2; exit 1; fi
  echo "ok: $1 ($2)"
}
later() { date -u -d "@$(( $(date -u -d "$1" +%s) + $2 ))" +%Y-%m-%dT%H:%M:%SZ; }

echo "== starting the service on port ${PORT} with the control API (data dir ${DIR})"
node --import tsx src/cli.ts --port "$PORT" --data-dir "$DIR" --admin-password "$PASSWORD" --enable-control --ssdp-port 0 --log-level warn &
SERVICE=$!
trap 'kill "$SERVICE" 2>/dev/null; wait "$SERVICE" 2>/dev/null; rm -rf "$DIR"' EXIT
for _ in $(seq 1 100); do
  if curl -sk -o /dev/null "${URL}/redfish/v1/"; then break; fi
  sleep 0.2
done

echo "== a UEFI system ROM package (Type B: written by UEFI during POST), signed with this controller's key"
ROM_ID=""
for m in $(redfish GET /redfish/v1/UpdateService/FirmwareInventory/ | jq -r '.Members[]["@odata.id"]'); do
  if [ "$(redfish GET "$m" | jq -r .Oem.Vendor.DeviceClass)" = SystemROM ]; then ROM_ID="$m"; fi
done
[ -n "$ROM_ID" ] || { echo "FAIL: no SystemROM in the firmware inventory" >&2; exit 1; }
OLD="$(redfish GET "$ROM_ID" | jq -r .Version)"
cli fwpkg build --data-dir "$DIR" --target SystemROM --type B --version 9.99 --out "$DIR/rom.fwpkg" > /dev/null
cli upload "$DIR/rom.fwpkg" --repository --no-target "${CONN[@]}" > /dev/null
check "the package is in the component repository" \
  "$(redfish GET /redfish/v1/UpdateService/ComponentRepository/rom.fwpkg/ | jq -r .Version)" 9.99

echo "== a maintenance window two hours from now, and a queued update in it"
NOW="$(control state | jq -r .State.Clock)"
START="$(later "$NOW" 7200)"
EXPIRE="$(later "$NOW" 14400)"
redfish POST /redfish/v1/UpdateService/MaintenanceWindows/ \
  "{\"Name\": \"Tonight\", \"StartAfter\": \"${START}\", \"Expire\": \"${EXPIRE}\"}" > /dev/null
TASK="$(redfish POST /redfish/v1/UpdateService/UpdateTaskQueue/ \
  '{"Name": "ROM 9.99", "UpdatableBy": ["Uefi"], "Command": "ApplyUpdate", "Component": "rom.fwpkg", "MaintenanceWindow": "Tonight"}' |
  jq -r '.["@odata.id"]')"
QUEUE=/redfish/v1/UpdateService/UpdateTaskQueue/
check "the task waits for its window" "$(redfish GET "$TASK" | jq -r .State)" Pending
check "the queue says why" "$(redfish GET "$QUEUE" | jq -r .Oem.Vendor.QueueStatus.Reason)" WindowNotOpen

echo "== the clock moves into the window: the task now waits for a reboot"
control advance-clock 7260s > /dev/null
check "the window is open" "$(redfish GET "$QUEUE" | jq -r .Oem.Vendor.QueueStatus.Reason)" WaitingForReboot

echo "== the server powers on; UEFI applies the update during POST"
redfish POST /redfish/v1/Systems/1/Actions/ComputerSystem.Reset/ '{"ResetType": "On"}' > /dev/null
for _ in $(seq 1 30); do
  [ "$(redfish GET "$TASK" | jq -r .State)" = Complete ] && break
  control advance-clock 10s > /dev/null
done
check "the queued update completed" "$(redfish GET "$TASK" | jq -r .State)" Complete
check "the system ROM runs the new version (was ${OLD})" "$(redfish GET "$ROM_ID" | jq -r .Version)" 9.99
for _ in $(seq 1 20); do
  [ "$(control state | jq -r .State.Phase)" = OsRunning ] && break
  control advance-clock 5s > /dev/null
done
check "the server finished booting" "$(control state | jq -r .State.Phase)" OsRunning

echo "== a day later the controller has removed the completed task"
control advance-clock 24h > /dev/null
check "the task is gone" "$(curl -sk -o /dev/null -w '%{http_code}' -u "Administrator:${PASSWORD}" "${URL}${TASK}")" 404
check "the clock jump is in the event log" \
  "$(redfish GET '/redfish/v1/Managers/1/LogServices/IEL/Entries/' | jq -r '[.Members[] | select(.MessageId | endswith("SimulatedEvent"))] | length > 0')" true
echo PASS
