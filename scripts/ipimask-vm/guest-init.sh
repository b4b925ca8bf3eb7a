#!/bin/sh
# /init of the 4-CPU guest that records tests/fixtures/traces/trace-cmd-ipimask.dat
# (scripts/ipimask-vm/record runs it; tests/fixtures/traces/README has the provenance).
# The events go to a tracefs instance of their own; then trace-cmd extract writes the file
# with small copies of kallsyms and the event formats bind-mounted over the real ones (as
# for tests/fixtures/traces/trace-cmd-sample.dat), so it stays small.  The file goes out
# on the console in base64; then the guest powers off.
mount -t proc proc /proc
mount -t sysfs sys /sys
mount -t devtmpfs dev /dev
mount -t tracefs tracefs /sys/kernel/tracing
mount -t tmpfs tmp /tmp
T=/sys/kernel/tracing
uname -a
echo "online CPUs: $(cat /sys/devices/system/cpu/online)"
echo "cpuidle driver: $(cat /sys/devices/system/cpu/cpuidle/current_driver 2>/dev/null)"
trace-cmd --version | head -2
I=$T/instances/ipimask
mkdir $I
echo 0 > $I/tracing_on # a new instance records at once: not while the events are enabled
echo 512 > $I/buffer_size_kb
for e in power/cpu_idle ipi/ipi_send_cpu ipi/ipi_send_cpumask irq/irq_handler_entry \
	irq_vectors/call_function_entry irq_vectors/call_function_single_entry \
	irq_vectors/reschedule_entry sched/sched_wakeup timer/hrtimer_expire_entry; do
	echo 1 > $I/events/$e/enable
done
echo 1 > $I/tracing_on
# the load: ipimask-load for 1 s, and meanwhile 10 flips of a static key
# (sched_schedstats: the kernel patches its text and sends an IPI to every other CPU, the
# idle ones too), each with a line on the console (the serial port's IRQ)
/bin/ipimask-load 1000 &
for i in 1 2 3 4 5 6 7 8 9 10; do
	echo 1 > /proc/sys/kernel/sched_schedstats; sleep 0.05
	echo 0 > /proc/sys/kernel/sched_schedstats; echo "flip $i"; sleep 0.05
done
wait
echo 0 > $I/tracing_on
# what trace-cmd extract reads besides the buffers, cut down: kallsyms to the lines of the
# functions the importer and the report name (and the symbol after each, so that no other
# function falls inside them), the formats of the systems recorded, no printk formats
awk 'k { print; k = 0 } $3 ~ /^(tick_nohz_handler|tick_sched_timer|hrtimer_wakeup|it_real_fn|process_timeout|watchdog_timer_fn|sched_rt_period_timer|generic_smp_call_function_single_interrupt|on_each_cpu_cond_mask|smp_call_function_many_cond|smp_call_function_single|generic_exec_single|ttwu_queue_wakelist|wakeup_preempt|resched_curr|irq_work_queue|irq_work_queue_on|membarrier_private_expedited|ipi_mb|flush_tlb_func|native_flush_tlb_multi|do_sync_core|smp_text_poke_batch_finish|text_poke_bp_batch|add_timer_on|rb_wake_up_waiters)$/ { print; k = 1 }' /proc/kallsyms > /tmp/kallsyms
mkdir -p /tmp/events /tmp/empty
cat $T/events/header_page > /tmp/events/header_page
cat $T/events/header_event > /tmp/events/header_event
for s in power ipi irq irq_vectors sched timer ftrace; do
	for d in $T/events/$s/*/; do
		[ -f "$d/format" ] || continue
		n=$(basename "$d")
		mkdir -p /tmp/events/$s/$n
		cat "$d/format" > /tmp/events/$s/$n/format
	done
done
: > /tmp/empty/printk_formats
mount -o bind /tmp/kallsyms /proc/kallsyms
mount -o bind /tmp/events $T/events
mount -o bind /tmp/empty/printk_formats $T/printk_formats
cd /tmp
trace-cmd extract -B ipimask -o /tmp/trace.dat
ls -l /tmp/trace.dat
echo BEGIN-TRACE-DAT
base64 /tmp/trace.dat
echo END-TRACE-DAT
poweroff -f
