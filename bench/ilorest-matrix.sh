#!/usr/bin/env bash
# ilorest matrix: runs the 47 iLO-specific ilorest commands (see ilorest-commands.md) against a
# Redfish service, non-interactively, and checks each command's effect over Redfish with curl.
#
#   npm run bench:ilorest -- URL USER PASSWORD [OUTDIR]   (bench/ilorest-matrix.sh; needs ilorest, curl, jq)
#     URL       https://127.0.0.1:18600   (self-signed certificates are fine: ilorest never verifies)
#   environment:
#     DATA_DIR      the service's --data-dir, to sign firmware packages and license keys with the
#                   project CLI (unset: those fixtures are skipped and their commands fail "no fixture")
#     BMC_REPO      the project checkout whose CLI builds them (default: this one)
#     DESTRUCTIVE=1 also run iloreset, onebuttonerase, factorydefaults, disableilofunctionality
#                   (last, in that order; the service may need a restart afterwards)
#     ONLY="a b"    run only these commands (names as in the table)
#     T=240         per-invocation timeout, seconds
#
# Writes OUTDIR/results.tsv (command, PASS/FAIL, reason) and OUTDIR/logs/<command>-<n>.log.
# Each command passes when every invocation exits 0 and its Redfish check holds.
set -u
URL=${1:?URL}; USER_=${2:?USER}; PASS_=${3:?PASSWORD}; OUT=${4:-$PWD/ilorest-matrix-out}
T=${T:-240}; BMC_REPO=${BMC_REPO:-$(cd "$(dirname "$0")/.." && pwd)}; DATA_DIR=${DATA_DIR:-}
unset REQUESTS_CA_BUNDLE CURL_CA_BUNDLE SSL_CERT_FILE https_proxy http_proxy HTTPS_PROXY HTTP_PROXY
mkdir -p "$OUT/logs" "$OUT/fix" "$OUT/work"
OUT=$(cd "$OUT" && pwd); FIX=$OUT/fix; WORK=$OUT/work
export HOME=$OUT/home; mkdir -p "$HOME"       # ilorest keeps config/logs under $HOME
CACHE=$OUT/cache; rm -rf "$CACHE"; mkdir -p "$CACHE"
: > "$OUT/results.tsv"
ILO=(ilorest --nologo --cache-dir "$CACHE")

log() { printf '%s\n' "$*" >&2; }
# Redfish GET with Basic auth; prints the body
rf() { curl -sk --compressed -u "$USER_:$PASS_" "$URL$1"; }
rfcode() { curl -sk -o /dev/null -w '%{http_code}' -u "$USER_:$PASS_" "$URL$1"; }
OEM=$(rf /redfish/v1/ | jq -r '(.Oem // {}) | keys[0] // "Vendor"')
log "service OEM name: $OEM"

N=0; CUR=""; REASON=""; OK=1
begin() { CUR=$1; N=0; OK=1; REASON=""; }
# run LABEL-free invocation: run [--stdin FILE] [--timeout S] args...
run() {
  local stdin=/dev/null to=$T
  while [ $# -gt 0 ]; do case $1 in --stdin) stdin=$2; shift 2;; --timeout) to=$2; shift 2;; *) break;; esac; done
  N=$((N+1)); local lf="$OUT/logs/$CUR-$N.log"
  { echo "\$ ilorest $*"; } > "$lf"
  (cd "$WORK" && timeout "$to" "${ILO[@]}" "$@" < "$stdin" >> "$lf" 2>&1); local rc=$?
  echo "[rc=$rc]" >> "$lf"
  if [ $rc -ne 0 ] && [ $OK -eq 1 ]; then
    OK=0
    local why
    why=$(grep -v '^\$ \|^\[rc=' "$lf" | grep -i -m1 -E 'error|exception|traceback|not found|unable|invalid|denied|incompatible|failed' || true)
    [ -z "$why" ] && why=$(grep -v '^\[rc=' "$lf" | grep -v '^\s*$' | tail -1)
    [ $rc -eq 124 ] && why="timeout after ${to}s; $why"
    REASON="ilorest $1 rc=$rc: ${why:0:220}"
  fi
  return $rc
}
check() { # check "description" command... (a failed check fails the command if nothing failed before)
  local d=$1; shift
  if ! "$@" >/dev/null 2>&1; then
    if [ $OK -eq 1 ]; then OK=0; REASON="check failed: $d"; fi
  fi
}
end() {
  local st=PASS; [ $OK -eq 1 ] || st=FAIL
  printf '%s\t%s\t%s\n' "$CUR" "$st" "$REASON" >> "$OUT/results.tsv"
  log "$(printf '%-24s %s %s' "$CUR" "$st" "$REASON")"
}
want() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }
jqt() { jq -e "$@" >/dev/null 2>&1; }   # jqt FILTER <<< json
members() { rf "$1?\$expand=." | jq -c '.Members // []'; }
login() { timeout 300 "${ILO[@]}" login "$URL" -u "$USER_" -p "$PASS_" > "$OUT/logs/login.log" 2>&1; }
wait_up() { for _ in $(seq 1 120); do [ "$(rfcode /redfish/v1/)" = 200 ] && return 0; sleep 2; done; return 1; }
# A controller reset after a flash comes a few seconds after the client saw Complete: wait for it to begin.
wait_down() { for _ in $(seq 1 60); do [ "$(rfcode /redfish/v1/)" != 200 ] && return 0; sleep 1; done; return 1; }
power() { rf /redfish/v1/Systems/1/ | jq -r .PowerState; }
wait_power() { for _ in $(seq 1 60); do [ "$(power)" = "$1" ] && return 0; sleep 1; done; return 1; }

# ---------- fixtures ----------
cli() { (cd "$BMC_REPO" && node --import tsx src/cli.ts "$@"); }
build_fixtures() {
  head -c 1048576 /dev/urandom > "$FIX/boot.iso"
  if [ -n "$DATA_DIR" ]; then
    cli fwpkg build --data-dir "$DATA_DIR" --target SystemROM --version "U30 v9.90" --out "$FIX/rom.bin" > "$FIX/build.log" 2>&1
    cli fwpkg build --data-dir "$DATA_DIR" --target SystemROM --version "U30 v9.91" --out "$FIX/rom2.bin" >> "$FIX/build.log" 2>&1
    # iLO payload.json layout when the CLI has it (issue 28), the project's own layout otherwise
    if ! cli fwpkg build --data-dir "$DATA_DIR" --layout ilo --target BMC --version 2.99 --type A --out "$FIX/bmc.fwpkg" >> "$FIX/build.log" 2>&1; then
      cli fwpkg build --data-dir "$DATA_DIR" --target BMC --version 2.99 --type A --out "$FIX/bmc.fwpkg" >> "$FIX/build.log" 2>&1
    fi
    # the key is the last line the CLI prints (iLO keys are 25 characters; ilorest passes any string)
    cli license issue --data-dir "$DATA_DIR" --tier Advanced 2>/dev/null | grep -v '^\s*$' | tail -1 > "$FIX/license.txt"
  fi
  cat > "$FIX/installset.json" <<'EOF'
[{"Name": "r28-wait", "Command": "Wait", "WaitTimeSeconds": 5, "UpdatableBy": ["Bmc"]},
 {"Name": "r28-rom", "Command": "ApplyUpdate", "Filename": "rom.bin", "UpdatableBy": ["Uefi"]}]
EOF
  printf 'r28-wait\nwait\n30\nquit\nn\nr28-made\nmade by the matrix\n' > "$FIX/makeinstallset.in"
  # a local HTTP server for firmwareupdate (ImageURI) and virtualmedia (Image)
  HTTP_PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  (cd "$FIX" && exec python3 -m http.server "$HTTP_PORT" --bind 127.0.0.1 > "$OUT/logs/http.log" 2>&1) &
  HTTP_PID=$!
  trap 'kill $HTTP_PID 2>/dev/null' EXIT
  HTTP=http://127.0.0.1:$HTTP_PORT
}
build_fixtures
have() { [ -s "$FIX/$1" ] || { OK=0; REASON="no fixture $1 (set DATA_DIR)"; return 1; }; }

login || log "login failed: $(tail -3 "$OUT/logs/login.log")"

# ---------- iLO repository commands ----------
if want uploadcomp; then begin uploadcomp
  if have rom.bin; then
    run uploadcomp --component "$FIX/rom.bin" --compsig "$FIX/rom.compsig" --forceupload
    check "rom.bin in ComponentRepository" jqt 'any(.[]; .Filename == "rom.bin")' <<< "$(members /redfish/v1/UpdateService/ComponentRepository/)"
  fi; end; fi
if want listcomp; then begin listcomp
  run listcomp
  check "listcomp names rom.bin" grep -q 'rom.bin' "$OUT/logs/listcomp-1.log"; end; fi
if want downloadcomp; then begin downloadcomp
  mkdir -p "$WORK/dl"; rm -f "$WORK/dl/rom.bin"
  run downloadcomp rom.bin --outdir "$WORK/dl"
  check "downloaded file equals the uploaded one" cmp -s "$WORK/dl/rom.bin" "$FIX/rom.bin"; end; fi
if want taskqueue; then begin taskqueue
  run taskqueue --resetqueue
  run taskqueue create 30
  run taskqueue create reboot
  run taskqueue create rom.bin --tpmover
  run taskqueue
  Q=$(members /redfish/v1/UpdateService/UpdateTaskQueue/)
  check "queue holds Wait, ResetServer and ApplyUpdate tasks" jqt '(map(.Command) | index("Wait") and index("ResetServer") and index("ApplyUpdate"))' <<< "$Q"
  run taskqueue --cleanqueue
  run taskqueue --resetqueue
  check "queue empty after --resetqueue" jqt 'length == 0' <<< "$(members /redfish/v1/UpdateService/UpdateTaskQueue/)"; end; fi
if want installset; then begin installset
  run installset add "$FIX/installset.json" --name r28set
  check "InstallSets has r28set" jqt 'any(.[]; .Name == "r28set")' <<< "$(members /redfish/v1/UpdateService/InstallSets/)"
  run installset
  run installset invoke --name r28set --cleartaskqueue --startafter 2030-01-01T00:00:00
  check "invoke queued the set's tasks" jqt 'length >= 2' <<< "$(members /redfish/v1/UpdateService/UpdateTaskQueue/)"
  run installset delete --name r28set
  check "r28set deleted" jqt 'all(.[]; .Name != "r28set")' <<< "$(members /redfish/v1/UpdateService/InstallSets/)"
  run taskqueue --resetqueue; end; fi
if want maintenancewindow; then begin maintenancewindow
  run maintenancewindow add 2030-01-01T00:00:00 --expire 2030-01-02T00:00:00 --name r28mw --description "matrix window"
  check "MaintenanceWindows has r28mw starting 2030-01-01" jqt 'any(.[]; .Name == "r28mw" and (.StartAfter | startswith("2030-01-01")))' <<< "$(members /redfish/v1/UpdateService/MaintenanceWindows/)"
  run maintenancewindow
  run maintenancewindow delete r28mw
  check "r28mw deleted" jqt 'all(.[]; .Name != "r28mw")' <<< "$(members /redfish/v1/UpdateService/MaintenanceWindows/)"; end; fi
if want makeinstallset; then begin makeinstallset
  rm -f "$WORK/made.json"
  run --stdin "$FIX/makeinstallset.in" makeinstallset -f "$WORK/made.json"
  check "made.json holds the Wait sequence" jqt '.Sequence[0].Command == "Wait" and .Name == "r28-made"' "$WORK/made.json"; end; fi
if want flashfwpkg; then begin flashfwpkg
  if have bmc.fwpkg; then
    run --timeout 400 flashfwpkg "$FIX/bmc.fwpkg" --forceupload
    # the controller resets 5 s after it reports the flash Complete (and stays reachable): let it reset first
    wait_down; wait_up; login
    check "BMC firmware now 2.99" jqt '.FirmwareVersion | test("2[.]99")' <<< "$(rf /redfish/v1/Managers/1/)"
  fi; end; fi
if want deletecomp; then begin deletecomp
  check "precondition: rom.bin in the repository (uploaded by uploadcomp)" jqt 'any(.[]; .Filename == "rom.bin")' <<< "$(members /redfish/v1/UpdateService/ComponentRepository/)"
  run deletecomp rom.bin
  check "rom.bin gone" jqt 'all(.[]; .Filename != "rom.bin")' <<< "$(members /redfish/v1/UpdateService/ComponentRepository/)"; end; fi

# ---------- iLO commands ----------
if want serverstate; then begin serverstate
  run serverstate
  check "prints a POST state" grep -q -E 'FinishedPost|InPost|PowerOff|InPostDiscoveryComplete|Unknown' "$OUT/logs/serverstate-1.log"; end; fi
if want serverinfo; then begin serverinfo
  run serverinfo
  # --json without --software: ilorest 3.6.0.0's JSON printer reads an undefined `options` whenever
  # SoftwareInventory has members (a real iLO with AMS running lists dozens), whatever the service says
  run serverinfo --json --system --memory --processors --thermals --fans --power --firmware --proxy
  check "every DIMM slot printed" test "$(grep -c '^Location: PROC' "$OUT/logs/serverinfo-1.log")" -eq "$(rf /redfish/v1/Systems/1/Memory/ | jq '.Members | length')"; end; fi
if want reboot; then begin reboot
  # a fresh data dir starts with the server Off: power it on over Redfish first (ForceOff on an Off server is an error, as on iLO)
  [ "$(power)" = On ] || { curl -sk -u "$USER_:$PASS_" -H 'Content-Type: application/json' -d '{"ResetType":"On"}' "$URL/redfish/v1/Systems/1/Actions/ComputerSystem.Reset/" >/dev/null; wait_power On; }
  run reboot ForceOff;  check "Off after ForceOff" wait_power Off
  run reboot On;        check "On after On" wait_power On
  run reboot Press;     check "Off after Press (graceful)" wait_power Off
  run reboot Press;     check "On after Press" wait_power On
  run reboot PressAndHold; check "Off after PressAndHold" wait_power Off
  run reboot On;        wait_power On
  run reboot ColdBoot;  check "On after ColdBoot" wait_power On
  run reboot ForceRestart; check "On after ForceRestart" wait_power On; end; fi
if want ethernet; then begin ethernet
  run ethernet
  run ethernet --json; end; fi
if want serverlogs; then begin serverlogs
  run serverlogs --selectlog=IML -f "$WORK/iml.txt"
  run serverlogs --selectlog=IML -m "r28 maintenance note"
  check "IML holds the maintenance note" grep -q 'r28 maintenance note' <(rf '/redfish/v1/Systems/1/LogServices/IML/Entries/?$expand=.')
  run serverlogs --selectlog=IEL -f "$WORK/iel.txt"
  run serverlogs --selectlog=IEL --clearlog
  # ilorest refuses -f for AHS ("AHS logs must be downloaded with default name"): the file lands in $WORK.
  run serverlogs --selectlog=AHS
  check "AHS file downloaded" bash -c "ls $WORK/*.ahs"; end; fi
if want virtualmedia; then begin virtualmedia
  run virtualmedia
  run virtualmedia 2 "$HTTP/boot.iso" --bootnextreset
  check "VirtualMedia/2 inserted with the image" jqt '.Inserted == true and (.Image | endswith("boot.iso"))' <<< "$(rf /redfish/v1/Managers/1/VirtualMedia/2/)"
  run virtualmedia 2 --remove
  check "VirtualMedia/2 ejected" jqt '.Inserted == false' <<< "$(rf /redfish/v1/Managers/1/VirtualMedia/2/)"; end; fi
if want iloaccounts; then begin iloaccounts
  run iloaccounts
  run iloaccounts add r28user r28login Matrix-Pass-1 --addprivs 1,5
  check "account r28user exists" jqt 'any(.[]; .UserName == "r28user")' <<< "$(members /redfish/v1/AccountService/Accounts/)"
  run iloaccounts changepass r28user Matrix-Pass-2
  check "r28user logs in with the new password" test "$(curl -sk -o /dev/null -w '%{http_code}' -u r28user:Matrix-Pass-2 "$URL/redfish/v1/SessionService/")" = 200
  run iloaccounts modify r28user --addprivs 2
  run iloaccounts delete r28user
  check "r28user deleted" jqt 'all(.[]; .UserName != "r28user")' <<< "$(members /redfish/v1/AccountService/Accounts/)"; end; fi
if want clearrestapistate; then begin clearrestapistate
  run clearrestapistate; end; fi
if want fwintegritycheck; then begin fwintegritycheck
  # iLO's firmware verification needs the Advanced Premium Security license (LicenseFeatures/FWScan):
  # install one over Redfish first (h28-firmware's copy of the matrix).
  if [ -n "$DATA_DIR" ]; then
    PKEY=$(cli license issue --data-dir "$DATA_DIR" --tier PremiumSecurity 2>/dev/null | grep -v '^\s*$' | tail -1)
    curl -sk -u "$USER_:$PASS_" -H 'Content-Type: application/json' -d "{\"LicenseKey\": \"$PKEY\"}" "$URL/redfish/v1/Managers/1/LicenseService/" > "$OUT/logs/premium-license.json"
    login
  fi
  run --timeout 120 fwintegritycheck --results
  check "UpdateService shows a LastScanTime" jqt --arg o "$OEM" '.Oem[$o].FirmwareIntegrity.LastScanTime != null' <<< "$(rf /redfish/v1/UpdateService/)"; end; fi
if want firmwareupdate; then begin firmwareupdate
  if have rom2.bin; then
    run --timeout 400 firmwareupdate "$HTTP/rom2.bin"
    check "System ROM 9.91 staged or active" grep -q '9.91' <(rf '/redfish/v1/UpdateService/FirmwareInventory/?$expand=.')
  fi; end; fi
if want ilolicense; then begin ilolicense
  if have license.txt; then
    run ilolicense "$(cat "$FIX/license.txt")"
    check "license is Advanced" grep -qi 'advanced' <(rf '/redfish/v1/Managers/1/LicenseService/?$expand=.')
  fi; end; fi
if want certificate; then begin certificate
  run certificate csr "Matrix Org" "Matrix Unit" r28.example.com US Texas Houston
  run certificate getcsr -f "$WORK/csr.pem"
  check "a PEM CSR was saved" grep -q 'BEGIN CERTIFICATE REQUEST' "$WORK/csr.pem"; end; fi
if want unifiedcertificate; then begin unifiedcertificate
  run unifiedcertificate gen_csr "Matrix Org" "Matrix Unit" r28.example.com US Texas Houston --TLS_CERT
  run unifiedcertificate get_csr --TLS_CERT -f "$WORK/ucsr.pem"
  check "a PEM CSR was saved" grep -q 'BEGIN CERTIFICATE REQUEST' "$WORK/ucsr.pem"; end; fi
if want singlesignon; then begin singlesignon
  run singlesignon importdns r28.example.com
  run singlesignon deleterecord all; end; fi
if want directory; then begin directory
  run directory ldap
  run directory ldap --serviceaddress ldap.example.com --port 636
  # ilorest sends the port with the address ("ldap.example.com:636").
  check "LDAP service address set" jqt '.LDAP.ServiceAddresses | any(startswith("ldap.example.com"))' <<< "$(rf /redfish/v1/AccountService/)"; end; fi
if want ilofederation; then begin ilofederation
  run ilofederation
  run ilofederation add r28fed r28fedkey r28fedkey
  check "FederationGroups has r28fed" jqt 'any(.[]; .Name == "r28fed")' <<< "$(members /redfish/v1/Managers/1/FederationGroups/)"
  run ilofederation delete r28fed; end; fi
if want sendtest; then begin sendtest
  run sendtest snmpalert
  run sendtest alertmail
  run sendtest syslog; end; fi
if want eskm; then begin eskm
  run eskm testconnections
  run eskm clearlog; end; fi
if want computeopsmanagement; then begin computeopsmanagement
  run computeopsmanagement status; end; fi
if want ipprofiles; then begin ipprofiles
  run ipprofiles; end; fi
if want backuprestore; then begin backuprestore
  rm -f "$WORK"/*.bak
  run backuprestore backup -f "$WORK/r28.bak"
  # ilorest writes the backup under the name of BackupFileLocation, in the current directory ($WORK), whatever -f says.
  check "backup file written" bash -c "test -s \"\$(ls $WORK/*.bak | head -1)\""; end; fi
if want serverclone; then begin serverclone
  run --timeout 400 serverclone save --auto -f "$WORK/clone.json"
  check "clone file written" jqt 'type == "object"' "$WORK/clone.json"; end; fi
if want sigrecompute; then begin sigrecompute
  run sigrecompute; end; fi

# ---------- BIOS commands ----------
if want biosdefaults; then begin biosdefaults
  run biosdefaults
  check "reset to defaults pending" jqt '.ResetBiosToDefaultsPending == true' <<< "$(rf /redfish/v1/Systems/1/Bios/)"; end; fi
if want setpassword; then begin setpassword
  run setpassword --newpassword R28-bios-1 --currentpassword None
  run setpassword --newpassword None --currentpassword R28-bios-1; end; fi
if want bootorder; then begin bootorder
  run bootorder
  run bootorder --onetimeboot=Hdd --commit
  check "one-time boot to Hdd" jqt '.Boot.BootSourceOverrideTarget == "Hdd" and .Boot.BootSourceOverrideEnabled == "Once"' <<< "$(rf /redfish/v1/Systems/1/)"
  run bootorder --disablebootflag --commit
  check "override off" jqt '.Boot.BootSourceOverrideTarget == "None"' <<< "$(rf /redfish/v1/Systems/1/)"
  first=$(rf /redfish/v1/Systems/1/Bios/Oem/Hpe/Boot/ | jq -r '.PersistentBootConfigOrder[1]')
  run bootorder "[2]" --commit
  check "pending order starts with the second" jqt --arg f "$first" '.PersistentBootConfigOrder[0] == $f' <<< "$(rf /redfish/v1/Systems/1/Bios/Oem/Hpe/Boot/Settings/)"; end; fi
if want iscsiconfig; then begin iscsiconfig
  run iscsiconfig
  run iscsiconfig --list
  run iscsiconfig --add 1
  check "attempt 1 on a NIC port pending" jqt '.iSCSISources[0].iSCSINicSource != "" and .iSCSISources[0].iSCSIAttemptName != ""' <<< "$(rf /redfish/v1/Systems/1/Bios/Oem/Hpe/iScsi/Settings/)"; end; fi
if want pending; then begin pending
  curl -sk -o /dev/null -u "$USER_:$PASS_" -X PATCH -H 'Content-Type: application/json' \
    -d '{"Attributes":{"ServerOtherInfo":"matrix-pending"}}' "$URL/redfish/v1/Systems/1/Bios/settings/"
  run pending
  check "the pending BIOS change listed" grep -q 'Pending=matrix-pending' "$OUT/logs/$CUR-$N.log"; end; fi

# ---------- Smart Array commands ----------
if want smartarray; then begin smartarray
  run smartarray
  run smartarray --controller=0 --physicaldrives
  run smartarray --controller=0 --logicaldrives
  check "logical drive 1 listed" grep -q "Logical Drive 1" "$OUT/logs/smartarray-3.log"; end; fi
if want createlogicaldrive; then begin createlogicaldrive
  run createlogicaldrive quickdrive Raid0 1 HDD SAS --locationtype=Internal --controller=0
  check "a pending RAID 0 volume in the Storage view" jqt '[.Members[]] | length == 2' <<< "$(rf /redfish/v1/Systems/1/Storage/DE00A000/Volumes/)"; end; fi
if want deletelogicaldrive; then begin deletelogicaldrive
  run deletelogicaldrive --controller=0 --all --force
  check "no logical drive pending" jqt '.LogicalDrives == []' <<< "$(rf /redfish/v1/Systems/1/SmartStorageConfig/settings/)"; end; fi
if want drivesanitize; then begin drivesanitize
  run drivesanitize 2I:1:6 --controller=0 --mediatype HDD
  check "erase pending" jqt '.Actions[0].PhysicalDriveList == ["2I:1:6"]' <<< "$(rf /redfish/v1/Systems/1/SmartStorageConfig/settings/)"; end; fi
if want clearcontrollerconfig; then begin clearcontrollerconfig
  run clearcontrollerconfig --controller=0; end; fi
if want factoryresetcontroller; then begin factoryresetcontroller
  run factoryresetcontroller --controller=0; end; fi

# ---------- destructive, last ----------
if [ "${DESTRUCTIVE:-0}" = 1 ]; then
  if want iloreset; then begin iloreset
    run iloreset; sleep 3; check "service back after iloreset" wait_up; login; end; fi
  if want onebuttonerase; then begin onebuttonerase
    # --nomonitor: ilorest 3.6.0.0's monitor ends by reading an undefined `options` (rc=255) on every
    # path, whatever the controller answers; the erase's progress is read over Redfish instead
    # a BIOS setting the erase must put back to its default
    curl -sk -u "$USER_:$PASS_" -X PATCH -H 'Content-Type: application/json' -d '{"Attributes":{"ServerName":"r28-erase"}}' "$URL/redfish/v1/Systems/1/Bios/Settings/" >/dev/null
    run --timeout 600 onebuttonerase --confirm --nomonitor
    erased() { for _ in $(seq 1 120); do jqt --arg o "$OEM" '.Oem[$o] | (.SystemROMAndiLOEraseStatus == "CompletedWithSuccess" and .UserDataEraseStatus == "CompletedWithSuccess") or .SystemROMAndiLOEraseStatus == "Idle"' <<< "$(rf /redfish/v1/Systems/1/)" && return 0; sleep 1; done; return 1; }
    check "erase completed" erased
    check "BIOS settings at their defaults" jqt '.Attributes.ServerName == ""' <<< "$(rf /redfish/v1/Systems/1/Bios/)"
    sleep 65; check "service back after the erase's factory reset" wait_up; login; end; fi
  if want factorydefaults; then begin factorydefaults
    # the controller resets a few seconds after it answered: wait for that reset to begin
    run factorydefaults; check "the controller reset after factorydefaults" wait_down; check "service back after factorydefaults" wait_up; login; end; fi
  if want disableilofunctionality; then begin disableilofunctionality
    run disableilofunctionality --force
    check "no answer while disabled" test "$(rfcode /redfish/v1/)" = 000; end; fi
else
  for c in iloreset onebuttonerase factorydefaults disableilofunctionality; do
    want $c && printf '%s\tSKIP\t%s\n' "$c" "destructive (DESTRUCTIVE=1 runs it)" >> "$OUT/results.tsv"
  done
fi

timeout 60 "${ILO[@]}" logout > "$OUT/logs/logout.log" 2>&1
P=$(grep -c $'\tPASS\t' "$OUT/results.tsv"); F=$(grep -c $'\tFAIL\t' "$OUT/results.tsv"); S=$(grep -c $'\tSKIP\t' "$OUT/results.tsv")
log "PASS $P  FAIL $F  SKIP $S  (results: $OUT/results.tsv)"
