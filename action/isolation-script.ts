/**
 * What agate does as root around the commands when they run as a user of their own
 * (isolation.ts): through the runner's passwordless sudo on a hosted runner, directly when agate
 * is root (a container job). One bash script, read by `bash -s -- <step> ...` from its standard
 * input (so sudo's log shows the step, not the script), with every value an argument, never text
 * pasted into the script. It is all functions until the last line, so bash has read the whole of
 * it before anything runs with standard input closed. Each step names the attack it blocks.
 *
 * - `setup NAME HOME AGATE_UID TREE`: the commands user, new for the job (a leftover of a job that
 *   died, recognised by the marker, is emptied of processes and removed first; a user of that
 *   name that agate did not make is refused), verified unprivileged, its HOME fresh, and the
 *   directories above the work tree made passable for it alone (an ACL entry, `x` only) where
 *   they are closed to other users. Prints `UID GID` and then each directory it opened.
 * - `handover UID AGATE_UID TREE`: the work tree becomes the user's, file by file, its top
 *   directory whoever owns it (in a container job the runner made it outside, as its own user).
 * - `signal UID GID SIGNAL`: the signal to every process of the user (a timeout's SIGTERM).
 * - `reclaim NAME UID GID AGATE_UID AGATE_GID TREE LIMIT_MS TREE_OWNER`: every process of the
 *   user killed (giving up, and failing, when some still run after LIMIT_MS milliseconds), its
 *   cron and at jobs removed, then the work tree agate's again (its top directory TREE_OWNER's,
 *   `uid:gid`, as before).
 * - `finish NAME UID GID AGATE_UID AGATE_GID TREE LIMIT_MS TREE_OWNER DIR...`: reclaim, the ACL
 *   entries on the directories setup opened removed, and the user deleted with its HOME.
 * - `serve`: handover, signal and reclaim for the whole job, one request after another from
 *   standard input (root-helper.ts), so that a command costs no sudo and no bash of their own.
 */
export const ISOLATION_SCRIPT = String.raw`
set -euo pipefail
# Nothing of the job's environment decides which programs run here.
PATH=/usr/sbin:/usr/bin:/sbin:/bin
export LC_ALL=C
MARKER="agate commands user (made by the agate Action for one job)"

die() { printf 'agate-isolation: %s\n' "$*" >&2; exit 3; }
need() { command -v "$1" >/dev/null 2>&1 || die "$1 is not installed ($2)"; }

# useradd and userdel take a lock on /etc/passwd and give up at once when another job holds it.
retry() {
  local out i
  for ((i = 0; i < 100; i++)); do
    if out=$("$@" 2>&1); then return 0; fi
    case "$out" in *lock*|*"try again"*) sleep 0.05 ;; *) printf '%s\n' "$out" >&2; return 1 ;; esac
  done
  printf '%s\n' "$out" >&2
  return 1
}

# The processes of a uid that can still run (real, effective or saved uid: a setuid program the
# user started counts too), read from /proc as root, so hidepid cannot hide any.
living() {
  grep -s -H -E '^(State|Uid):' /proc/[0-9]*/status | awk -v u="$1" -F'[:\t ]+' '
    $2 == "State" { state[$1] = $3 }
    $2 == "Uid" && state[$1] != "Z" && state[$1] != "X" && ($3 == u || $4 == u || $5 == u) {
      split($1, part, "/"); print part[3]
    }'
}

# Milliseconds on a clock that only moves on, into NOW_MS (no fork): bash 5's EPOCHREALTIME, to
# the second on an older bash.
now_ms() {
  local sec usec
  if [[ -v EPOCHREALTIME ]]; then
    IFS=. read -r sec usec <<<"$EPOCHREALTIME"
    NOW_MS=$(( sec * 1000 + 10#$usec / 1000 ))
  else
    NOW_MS=$(( SECONDS * 1000 ))
  fi
}

# As the user: kill(-1), which reaches every process the user may signal, in one system call that
# no fork can outrun (a process with a kill pending cannot fork). Then, as root, each process still
# listed: one that killed our killer first is not spared. Until none is left, or give up once
# limit_ms has passed (one round at least).
sweep() {
  local uid=$1 gid=$2 limit_ms=$3 deadline pids
  now_ms
  deadline=$(( NOW_MS + limit_ms ))
  while :; do
    setpriv --reuid="$uid" --regid="$gid" --clear-groups -- "$BASH" -c 'kill -KILL -1' >/dev/null 2>&1 || true
    pids=$(living "$uid")
    [ -z "$pids" ] && return 0
    # shellcheck disable=SC2086
    kill -KILL $pids 2>/dev/null || true
    now_ms
    if [ "$NOW_MS" -ge "$deadline" ]; then
      # What the last kill took may be gone by now: a sweep fails only on what still runs.
      [ -z "$(living "$uid")" ] && return 0
      return 1
    fi
    sleep 0.02
  done
}

# A cron or at job of the user's would start a process after the sweep, while agate reads the
# work tree; so they are removed before it.
forget_schedules() {
  if command -v crontab >/dev/null 2>&1; then crontab -r -u "$1" >/dev/null 2>&1 || true; fi
  if command -v atq >/dev/null 2>&1; then
    atq 2>/dev/null | awk -v u="$1" '$NF == u { print $1 }' | xargs -r atrm 2>/dev/null || true
  fi
}

# Everything the user owns in the tree becomes agate's. Symlinks are changed themselves and never
# followed (find does not follow them, chown -h): a link to /etc/shadow or to agate's files moves
# nothing. chmod on everything but links: u+rwX so that no directory the user closed hides a file
# from agate's look at the tree, go-w so that nothing it made open to all stays writable by others
# once it is agate's, ug-s so that no setuid or setgid program of the user's becomes one of
# agate's. One walk for both: each file goes to chmod's batch (links excepted) and chown's;
# whichever batch runs first, root ends with the same modes and owners, and nothing of the user's
# runs meanwhile (swept before). Only the user's own files: a hard link it made to anyone else's
# file (where protected_hardlinks allows it) keeps its owner.
take_back() {
  local uid=$1 ruid=$2 rgid=$3 tree=$4
  find "$tree" -xdev -uid "$uid" \( -type l -o -exec chmod u+rwX,go-w,ug-s -- {} + \) \
    -exec chown -h "$ruid:$rgid" -- {} +
}

reclaim() {
  local name=$1 uid=$2 gid=$3 ruid=$4 rgid=$5 tree=$6 limit_ms=$7 owner=$8
  # Killed before its schedules are forgotten (a living process could schedule again meanwhile),
  # and again after (cron may have started one in between).
  sweep "$uid" "$gid" "$limit_ms" || die "a process of $name survived every kill: $(living "$uid" | head -5 | tr '\n' ' ')"
  forget_schedules "$name"
  sweep "$uid" "$gid" "$limit_ms" || die "a process of $name survived every kill: $(living "$uid" | head -5 | tr '\n' ' ')"
  take_back "$uid" "$ruid" "$rgid" "$tree"
  chown -h -- "$owner" "$tree"
}

# Prints what makes the user unfit for the commands, if anything (setup then removes it).
verify() {
  local name=$1 uid=$2 gid=$3 ruid=$4 out sock
  if [ "$uid" = 0 ] || [ "$gid" = 0 ]; then echo "$name has uid $uid and gid $gid: root"; return; fi
  if [ "$uid" = "$ruid" ]; then echo "$name has uid $uid, agate's own"; return; fi
  if [ "$(awk -F: -v u="$uid" '$3 == u' /etc/passwd | wc -l)" != 1 ]; then echo "another user shares uid $uid with $name"; return; fi
  if [ "$(id -G "$name")" != "$gid" ]; then
    echo "$name is in the groups $(id -Gn "$name"), which may grant root (sudo, docker, adm, ...)"
    return
  fi
  if command -v sudo >/dev/null 2>&1; then
    out=$(sudo -n -l -U "$name" 2>&1 || true)
    case "$out" in *"is not allowed to run sudo"*) ;; *) echo "$name may use sudo: $out"; return ;; esac
  fi
  # Access to the Docker daemon is root on the host.
  for sock in /var/run/docker.sock /run/docker.sock; do
    if [ -S "$sock" ] && setpriv --reuid="$uid" --regid="$gid" --clear-groups -- test -w "$sock"; then
      echo "$sock is writable by every user: the commands could start a root container"
      return
    fi
  done
}

setup() {
  local name=$1 home=$2 ruid=$3 tree=$4 line uid gid gecos shell closed d unfit
  need setpriv "util-linux: agate drops to the commands user and kills its processes with it"
  need useradd "passwd: agate makes a user for the commands with it"
  need userdel "passwd"
  if line=$(getent passwd "$name"); then
    IFS=: read -r _ _ uid gid gecos _ <<<"$line"
    [ "$gecos" = "$MARKER" ] || die "a user named $name exists that agate did not make; remove it (userdel $name)"
    forget_schedules "$name"
    sweep "$uid" "$gid" 10000 || die "processes of the leftover user $name survived every kill"
    retry userdel -r "$name" || die "cannot remove the leftover user $name"
  fi
  shell=/usr/sbin/nologin
  [ -x "$shell" ] || shell=/bin/false
  # A HOME left by an earlier job (its userdel failed) would hand its .npmrc or .gitconfig on.
  rm -rf -- "$home"
  mkdir -p -- "$(dirname -- "$home")"
  retry useradd --system --user-group --create-home --home-dir "$home" --shell "$shell" --comment "$MARKER" "$name" ||
    die "useradd failed for $name"
  uid=$(id -u "$name")
  gid=$(id -g "$name")
  unfit=$(verify "$name" "$uid" "$gid" "$ruid")
  if [ -n "$unfit" ]; then
    retry userdel -r "$name" || true
    die "$unfit"
  fi
  chown "$uid:$gid" -- "$home"
  chmod 0700 -- "$home"
  # The user must reach the work tree: each directory above it must let it pass. Where one is
  # closed to other users (a home directory of mode 750), it alone gets x, by ACL; read and write
  # there stay closed, and finish takes the entry away. From / down, so that a directory is only
  # judged once the user can reach it. (The directories are the positional parameters: this script
  # is a JavaScript template, where a brace after a dollar sign would be read as JavaScript.)
  set --
  d=$tree
  while [ "$d" != / ]; do d=$(dirname -- "$d"); set -- "$d" "$@"; done
  closed=
  while d=$(setpriv --reuid="$uid" --regid="$gid" --clear-groups -- "$BASH" -c 'for d; do [ -x "$d" ] || { printf "%s" "$d"; exit; }; done' _ "$@") && [ -n "$d" ]; do
    need setfacl "acl: $d is closed to other users, and agate lets the commands user pass it with an ACL entry"
    setfacl -m "u:$uid:x" -- "$d" || die "cannot let $name pass $d"
    closed+="$d"$'\n'
  done
  printf '%s %s\n' "$uid" "$gid"
  printf '%s' "$closed"
}

finish() {
  local name=$1 uid=$2 gid=$3 ruid=$4 rgid=$5 tree=$6 limit_ms=$7 owner=$8 d
  shift 8
  reclaim "$name" "$uid" "$gid" "$ruid" "$rgid" "$tree" "$limit_ms" "$owner"
  for d in "$@"; do setfacl -x "u:$uid" -- "$d" 2>/dev/null || true; done
  retry userdel -r "$name" || die "cannot remove the commands user $name"
}

main() {
  local step=$1
  shift
  case "$step" in
    setup) setup "$@" ;;
    handover)
      # Only what is agate's changes hands, never a file with another name elsewhere (a hard link
      # to agate's bundle or /etc/passwd would hand that file over too); and the top directory,
      # so that the commands can make files in it. Never .git: a core.fsmonitor or hook planted
      # there runs as the runner's user (who has sudo) in the next git command of the job, such
      # as actions/checkout's post step. Every .git, a submodule's too (git enters each); agate
      # checks after each command that each is the same file.
      chown -h "$1" -- "$3"
      find "$3" -xdev -name .git -prune -o -uid "$2" ! \( -type f -links +1 \) \
        -exec chown -h "$1" -- {} + ;;
    signal) setpriv --reuid="$1" --regid="$2" --clear-groups -- "$BASH" -c 'kill -"$1" -1' _ "$3" >/dev/null 2>&1 || true ;;
    reclaim) reclaim "$@" ;;
    finish) finish "$@" ;;
    *) die "unknown step $step" ;;
  esac
}

# The steps around each command for the whole job, without a sudo and a bash per step: requests
# on standard input (after this script), each the number of fields and then the step and its
# arguments, NUL-terminated; each answered with the step's exit status on a line. Only agate holds
# the request pipe's other end. A step runs in a subshell (its die ends the step, not this loop),
# with standard input closed and without the answer channel (fd 3), so no process it starts can
# read a request or forge an answer; those it starts as the commands user (setpriv) hold nothing
# but /dev/null, for another process of that user may open what they hold through /proc. Only
# the steps around a command are served; setup and finish run as steps of their own.
serve() {
  local n i field status
  exec 3>&1 1>&2
  while IFS= read -r -d '' n; do
    set --
    for ((i = 0; i < n; i++)); do
      IFS= read -r -d '' field || exit 0
      set -- "$@" "$field"
    done
    [ "$#" -gt 0 ] || die "serve: an empty request"
    case "$1" in handover|signal|reclaim) ;; *) die "serve: step $1 is not served" ;; esac
    # Not "( ... ) || status=$?": on the left of || bash ignores set -e in the subshell too, and
    # a step that failed halfway would report success.
    set +e
    ( set -e; main "$@" ) </dev/null 3>&-
    status=$?
    set -e
    printf '%s\n' "$status" >&3
  done
}

if [ "$#" -gt 0 ] && [ "$1" = serve ]; then serve; else main "$@" </dev/null; fi
`;
