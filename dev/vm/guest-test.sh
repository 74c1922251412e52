#!/bin/sh
# The checks dev/test-vm runs inside the guest (busybox sh, as /init's
# child). Each check prints one line `vm-check: NAME: PASS|FAIL detail`;
# the host counts them. Expects /opt/schedsim/{schedsim,scx_place.bpf.o},
# /bin/scx_load, an SMT machine with two LLCs whose second holds CPUs 4-7
# (qemu -smp sockets=2,cores=2,threads=2).
S=/opt/schedsim/schedsim
T=/sys/kernel/tracing
LOAD="2 4 2000"

check() {  # NAME PASS|FAIL DETAIL
  echo "vm-check: $1: $2 $3"
}
state() { cat /sys/kernel/sched_ext/state 2>/dev/null; }
wait_state() {  # STATE: up to 20 s
  i=0
  while [ "$(state)" != "$1" ] && [ $i -lt 100 ]; do sleep 0.2; i=$((i + 1)); done
  [ "$(state)" = "$1" ]
}

echo "vm-guest: kernel $(uname -r), $(nproc) CPUs, sched_ext state $(state)"
if [ -r /sys/kernel/btf/vmlinux ] && [ "$(state)" = disabled ]; then
  check boot PASS "sched_ext present and disabled, BTF exported"
else
  check boot FAIL "state '$(state)', btf $(ls /sys/kernel/btf/vmlinux 2>&1)"
fi
llc1="$(cat /sys/devices/system/cpu/cpu4/cache/index3/shared_cpu_list 2>/dev/null)"
sib6="$(cat /sys/devices/system/cpu/cpu6/topology/thread_siblings_list 2>/dev/null)"
if [ "$llc1" = "4-7" ] && [ "$sib6" = "6-7" ]; then
  check topology PASS "LLC of CPU 4 is $llc1, CPU 6's core is $sib6"
else
  check topology FAIL "LLC of CPU 4 is '$llc1', CPU 6's core is '$sib6' (want 4-7, 6-7)"
fi

# --- 1. sis_util: enables, the load completes, exit counters -------------
# The test's shell and the agents keep to socket 0 (CPUs 0-3): socket 1
# is the placement scenario's (section 2).
taskset -p -c 0-3 $$ >/dev/null
taskset -c 0-3 $S scx --placement=sis_util --json=/tmp/sis.json \
  --decision-log=/tmp/sis.decisions >/tmp/sis.log 2>&1 &
agent=$!
if wait_state enabled && [ "$(cat /sys/kernel/sched_ext/root/ops)" = schedsim ]; then
  check enable PASS "state enabled, root/ops schedsim"
else
  check enable FAIL "state '$(state)'"; cat /tmp/sis.log
fi

# A second scheduler is refused while this one runs.
$S scx --placement=prev >/tmp/second.log 2>&1
rc=$?
if [ $rc = 3 ] && grep -q "another sched_ext scheduler is loaded" /tmp/second.log \
    && [ "$(wc -l </tmp/second.log)" = 1 ]; then
  check refuse-second PASS "exit 3: $(cat /tmp/second.log)"
else
  check refuse-second FAIL "exit $rc: $(cat /tmp/second.log)"
fi

start=$(date +%s)
echo mono >$T/trace_clock
echo 8192 >$T/buffer_size_kb
echo >$T/trace
echo 1 >$T/events/sched/sched_switch/enable
echo 1 >$T/tracing_on
if taskset -c 0-7 scx_load $LOAD >/tmp/load.log 2>&1; then
  check load PASS "$(cat /tmp/load.log)"
else
  check load FAIL "$(cat /tmp/load.log)"
fi
echo 0 >$T/tracing_on

# The agent's choice is where the task ran: for each decision (enq_ns pid
# this prev cpu), the task's first sched_switch in after its enqueue is on
# that CPU (trace_clock mono is bpf_ktime_get_ns's clock).
cat $T/trace >/tmp/load.trace
awk '
  FNR == NR { n++; dt[n] = $1 / 1e9; dp[n] = $2; dc[n] = $5
              cnt[$2]++; L[$2, cnt[$2]] = n; next }
  /sched_switch:/ {
    if (!match($0, /next_pid=[0-9]+/)) next
    pid = substr($0, RSTART + 9, RLENGTH - 9)
    match($0, /\[[0-9]+\]/); cpu = substr($0, RSTART + 1, RLENGTH - 2) + 0
    match($0, /[0-9]+\.[0-9]+: sched_switch/); ts = substr($0, RSTART, RLENGTH - 14) + 0
    if (!started) { started = 1; first = ts }
    # The latest decision for this task made before it switched in.
    last = 0
    while (ptr[pid] < cnt[pid] && dt[L[pid, ptr[pid] + 1]] <= ts) {
      if (last) skipped++
      ptr[pid]++; last = L[pid, ptr[pid]]
    }
    if (!last) next
    if (dc[last] < 0 || dt[last] < first) skipped++
    else if (dc[last] == cpu) same++
    else diff++
  }
  END { printf "%d %d %d\n", same, diff, n - same - diff }' /tmp/sis.decisions /tmp/load.trace >/tmp/match.txt
read same diff skipped </tmp/match.txt
if [ "${same:-0}" -ge 100 ] && [ $((diff * 50)) -le "$same" ]; then
  check decisions-in-trace PASS "$same decisions ran where the agent put them, $diff elsewhere, $skipped outside the trace"
else
  check decisions-in-trace FAIL "$same decisions ran where the agent put them, $diff elsewhere, $skipped outside the trace"
fi

# --- 2. Placement from the guest's trace ---------------------------------
# A spinner fills CPU 5; core 6-7 is idle (the shell and the agent keep to
# socket 0). A sleeper (a timer wake-up every 100 ms) starts pinned to CPU
# 4, a second spinner takes CPU 4, and 0.2 s later the sleeper is allowed
# 4-7: its previous CPU is the busy CPU 4 at its next wake-up (allowed 4-7
# any earlier, a `prev` placement could leave it on another CPU of the
# four, as the waker's, and the contrast below would not hold; seen once
# on 2026-12-07 with prev_cpu 6). sis_util's select_idle_core moves it to
# the idle core (6 or 7) and keeps it there; the `prev` policy, which does
# not scan, keeps it on its busy previous CPU 4. Read back from the moment
# it is allowed 4-7: the agent's decision for the sleeper's next wake-up
# (--decision-log), and the CPU the guest's sched_switch trace then shows
# it running on.
# Woken on CPU 4, the sleeper waits behind the spinner for up to a slice
# (5 ms). If `taskset -p` catches it queued, sched_ext dequeues and
# re-enqueues it without SCX_ENQ_WAKEUP, and the BPF side places such
# re-enqueues through the fallback (the shared DSQ, an idle CPU kicked):
# it then runs on 5, 6 or 7, which becomes its prev_cpu (CI saw 6 on
# 2026-12-07 after 1e4aede; a local run saw 5). The contrast needs
# prev_cpu 4 at the decision read, so a run whose decision reads another
# prev_cpu is a scenario that did not set up: it is repeated, at most
# three times, and the attempts are reported. The 100 ms sleep makes that
# about one `taskset -p` in twenty (with a 20 ms sleep a local run needed
# a second attempt); the marker before `taskset -p` keeps a decision made
# between the two commands out of the read (a local run with the marker
# after it read prev_cpu 6 twice for sis_util).
spinners=""
for c in 5; do
  taskset -c $c sh -c 'while :; do :; done' &
  spinners="$spinners $!"
done
placed_cpu() {  # DECISION-LOG -> "decided ran prev_cpu"
  echo 0 >$T/tracing_on
  echo >$T/trace
  taskset -c 4 scx_load --sleeper 100 100000 &
  sl=$!
  sleep 1
  echo 1 >$T/tracing_on
  taskset -c 4 sh -c 'while :; do :; done' &
  sp=$!
  sleep 0.2
  # The marker first: a pinned task's wake-ups make no decision, so the
  # first decision after it is the first wake-up allowed 4-7.
  echo "scx-busy" >$T/trace_marker
  taskset -p -c 4-7 $sl >/dev/null
  sleep 1
  echo 0 >$T/tracing_on
  kill $sl $sp 2>/dev/null
  wait $sl $sp 2>/dev/null
  awk -v pid="$sl" '
    FNR == NR { if ($2 == pid) { n++; dt[n] = $1 / 1e9; dc[n] = $5; dp[n] = $4 }; next }
    /scx-busy/ {
      match($0, /[0-9]+\.[0-9]+: /); mark = substr($0, RSTART, RLENGTH - 2) + 0
      for (i = 1; i <= n; i++) if (dt[i] >= mark) { d = dc[i]; e = dt[i]; p = dp[i]; break }
      next
    }
    d != "" && /sched_switch:/ && $0 ~ ("next_pid=" pid " ") {
      match($0, /[0-9]+\.[0-9]+: sched_switch/); ts = substr($0, RSTART, RLENGTH - 14) + 0
      if (ts < e) next
      match($0, /\[[0-9]+\]/); print d, substr($0, RSTART + 1, RLENGTH - 2) + 0, p; exit
    }' "$1" $T/trace
}
placed_from_4() {  # DECISION-LOG -> "decided ran prev_cpu attempts"
  for attempt in 1 2 3; do
    read -r pd pr pp <<EOF_PLACED
$(placed_cpu "$1")
EOF_PLACED
    [ "$pp" = 4 ] && break
    echo "vm-guest: placement attempt $attempt read prev_cpu '$pp' (want the busy CPU 4); again" >&2
  done
  echo "${pd:--} ${pr:--} ${pp:--} $attempt"
}
set -- $(placed_from_4 /tmp/sis.decisions)
case "$1:$2" in
  6:6|7:7) check placement-sis_util PASS "sis_util put the sleeper on CPU $1 (idle core 6-7; its prev_cpu $3; attempt $4) and the trace shows it ran there" ;;
  *) check placement-sis_util FAIL "sis_util chose CPU '$1' (prev_cpu '$3'), the trace shows CPU '$2'; want 6 or 7 (the idle core), both" ;;
esac

kill -INT $agent
wait $agent
rc=$?
end=$(date +%s)
cat /tmp/sis.log
if [ $rc = 0 ] && [ "$(state)" = disabled ] && grep -q '^Placement:' /tmp/sis.log \
    && grep -q '^Decision:' /tmp/sis.log && grep -q '"policy_placements": [1-9]' /tmp/sis.json; then
  check exit-counters PASS "SIGINT: exit 0, state disabled, counters printed ($((end - start)) s)"
else
  check exit-counters FAIL "exit $rc, state '$(state)'"
fi

# --- 2b. The fallback: with one undecided wake-up allowed, the BPF side
# places the rest itself, counts them, and the load still completes.
taskset -c 0-3 $S scx --placement=sis_util --max-outstanding=1 \
  --json=/tmp/fb.json >/tmp/fb.log 2>&1 &
agent=$!
if wait_state enabled; then
  taskset -c 0-7 scx_load $LOAD >/tmp/load3.log 2>&1
  lrc=$?
  kill -INT $agent
  wait $agent
  fb="$(grep -o '"fallback_placements": [0-9]*' /tmp/fb.json | grep -o '[0-9]*$')"
  pp="$(grep -o '"policy_placements": [0-9]*' /tmp/fb.json | grep -o '[0-9]*$')"
  if [ $lrc = 0 ] && [ "${fb:-0}" -gt 0 ] && [ "${pp:-0}" -gt 0 ]; then
    check fallback PASS "--max-outstanding=1: $pp by the policy, $fb by the fallback; the load completed"
  else
    check fallback FAIL "load exit $lrc, policy ${pp:-?}, fallback ${fb:-?}: $(tail -3 /tmp/fb.log)"
  fi
else
  check fallback FAIL "did not enable: $(cat /tmp/fb.log)"
fi

# --- 3. The contrast: the `prev` policy keeps the sleeper on CPU 4 --------
taskset -c 0-3 $S scx --placement=prev --decision-log=/tmp/prev.decisions \
  >/tmp/prev.log 2>&1 &
agent=$!
if wait_state enabled; then
  # prev does not scan: with its previous CPU busy it stays there (or on
  # the waking CPU, wake_affine's target), never on the idle core.
  set -- $(placed_from_4 /tmp/prev.decisions)
  if [ -n "$1" ] && [ "$1" = "$2" ] && [ "$1" = "$3" ] && [ "$1" != 6 ] && [ "$1" != 7 ]; then
    check placement-prev PASS "prev kept the sleeper on its busy prev_cpu $1 (attempt $4) and the trace shows it ran there"
  else
    check placement-prev FAIL "prev chose CPU '$1' (prev_cpu '$3'), the trace shows CPU '$2'; want its prev_cpu, not 6-7, both"
  fi
else
  check placement-prev FAIL "did not enable: $(cat /tmp/prev.log)"
fi
kill -INT $agent
wait $agent
for p in $spinners; do kill $p; done
wait 2>/dev/null

# --- 4. SIGKILL: the kernel returns every task to the fair class ----------
taskset -p -c 0-7 $$ >/dev/null
$S scx --placement=sis_util >/tmp/kill.log 2>&1 &
agent=$!
if wait_state enabled; then
  scx_load $LOAD >/tmp/load2.log 2>&1 &
  load=$!
  sleep 1
  kill -9 $agent
  wait $agent 2>/dev/null
  if wait_state disabled && wait $load; then
    check sigkill PASS "state disabled after SIGKILL; the load completed under the fair class: $(cat /tmp/load2.log)"
  else
    check sigkill FAIL "state '$(state)', load: $(cat /tmp/load2.log)"
  fi
  dmesg | grep 'sched_ext' | tail -2
else
  check sigkill FAIL "did not enable: $(cat /tmp/kill.log)"
fi
# --- 5. shadow --live: the guest's own tracefs, under the fair class -------
scx_load $LOAD >/dev/null 2>&1 &
load=$!
$S shadow --live=2 --placement=sis_util --format=json >/tmp/shp.json 2>/tmp/shp.err
rc=$?
wait $load
n="$(grep -o '"evaluated": [0-9]*' /tmp/shp.json | grep -o '[0-9]*$')"
if [ $rc = 0 ] && [ "${n:-0}" -gt 0 ]; then
  check shadow-live-placement PASS "sis_util shown $n of the kernel's wake-ups ($(grep -o '"agreement_pct": [0-9.]*' /tmp/shp.json))"
else
  check shadow-live-placement FAIL "exit $rc: $(head -3 /tmp/shp.err)"
fi
# No cpuidle driver under TCG: the states are a preset's (the kernel's idle
# loop records state 1, HLT).
$S shadow --live=2 --cpuidle=all --sysfs=/sys --power-model=skylake-e3-1240v5 \
  --format=json >/tmp/shi.json 2>/tmp/shi.err
rc=$?
n="$(grep -o '"periods": [0-9]*' /tmp/shi.json | head -1 | grep -o '[0-9]*$')"
g="$(grep -c '"policy": ' /tmp/shi.json)"
if [ $rc = 0 ] && [ "${n:-0}" -gt 0 ] && [ "$g" = 4 ]; then
  check shadow-live-cpuidle PASS "haltpoll, ladder, menu and teo each shown the guest's $n idle periods"
else
  check shadow-live-cpuidle FAIL "exit $rc, $g reports: $(head -3 /tmp/shi.err)"
fi
echo "vm-guest: done"
