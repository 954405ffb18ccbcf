using SqlWaitProbe.Core.Engines;

namespace SqlWaitProbe.Analysis.OffCpu;

/// <summary>
/// Names what an off-CPU stack waited for: a reason from the kernel frames (child process, pipe, futex, disk I/O…),
/// the blocking kernel function, the user-space call into the kernel and the server's own frame nearest to it, e.g.
/// <c>waiting for a child process: do_wait ← __GI___wait4 ← … ← ClosePipeStream</c>.
/// </summary>
public static class OffCpuLabel
{
    // The scheduler's own frames say nothing about why a thread left the CPU.
    private static readonly string[] SchedulerFrames =
    [
        "__schedule", "schedule", "schedule_timeout", "schedule_hrtimeout_range", "schedule_hrtimeout_range_clock", "io_schedule",
        "io_schedule_timeout", "schedule_preempt_disabled", "preempt_schedule", "preempt_schedule_common", "__cond_resched",
        "schedule_idle", "__wait_for_common", "KiSwapContext", "KiSwapThread", "KiCommitThreadWait", "SwapContext",
    ];

    // First match (in this order, anywhere among the kernel frames) decides the reason.
    private static readonly (string[] Frames, string Reason)[] Reasons =
    [
        (["do_wait", "kernel_wait4"], "waiting for a child process"),
        (["pipe_read", "anon_pipe_read", "pipe_write", "anon_pipe_write", "pipe_wait"], "waiting on a pipe (a child program's output)"),
        (["futex_wait", "futex_wait_queue", "futex_wait_queue_me", "do_futex"], "waiting on a futex (a lock or condition in user space)"),
        (["do_semtimedop", "semtimedop"], "waiting on a semaphore"),
        (["do_epoll_wait", "ep_poll", "do_select", "do_sys_poll", "do_poll"], "waiting for a socket or event (poll)"),
        (["do_nanosleep", "hrtimer_nanosleep", "KeDelayExecutionThread"], "sleeping on a timer"),
        (["folio_wait_bit_common", "wait_on_page_bit_common", "blk_mq_get_tag", "jbd2_log_wait_commit", "file_write_and_wait_range", "io_schedule", "submit_bio_wait"], "waiting for disk I/O"),
        (["exc_page_fault", "handle_mm_fault", "do_page_fault", "MmAccessFault"], "in a page fault"),
        (["rwsem_down_read_slowpath", "rwsem_down_write_slowpath", "down_read", "down_write"], "waiting on a kernel rwsem (e.g. mmap_lock)"),
        (["__mutex_lock", "mutex_lock"], "waiting on a kernel mutex"),
        (["sk_wait_data", "tcp_recvmsg", "unix_stream_read_generic", "sock_recvmsg", "sock_sendmsg"], "waiting on a socket"),
        (["wait_for_completion", "wait_for_completion_state", "wait_for_completion_killable"], "waiting for the kernel to complete a request"),
        (["exit_to_user_mode_loop", "irqentry_exit_to_user_mode"], "preempted on the way back to user space"),
    ];

    /// <summary>The label of a folded stack (process first, frames root first).</summary>
    public static string For(string stack, EngineProcess server)
    {
        var frames = stack.Split(';');
        var kernel = new List<string>();
        string? userLeaf = null, serverFrame = null;
        for (var i = frames.Length - 1; i >= 1; i--)
        {
            var (module, symbol, isKernel) = Split(frames[i]);
            if (isKernel)
            {
                if (userLeaf is null)
                {
                    kernel.Add(symbol);
                }

                continue;
            }

            if (symbol == "[unknown]" || symbol == module)
            {
                continue;
            }

            userLeaf ??= symbol;
            if (serverFrame is null && server.IsOwnModule(module))
            {
                serverFrame = symbol;
            }
        }

        var blocking = kernel.FirstOrDefault(k => !SchedulerFrames.Contains(k, StringComparer.Ordinal)) ?? kernel.FirstOrDefault() ?? "?";
        var reason = Reasons.FirstOrDefault(r => kernel.Any(k => r.Frames.Contains(k, StringComparer.Ordinal))).Reason ?? $"blocked in {blocking}";
        var path = new List<string> { blocking };
        if (userLeaf is not null)
        {
            path.Add(userLeaf);
        }

        if (serverFrame is not null && serverFrame != userLeaf)
        {
            path.Add("…");
            path.Add(serverFrame);
        }

        return $"{reason}: {string.Join(" ← ", path)}";
    }

    private static (string Module, string Symbol, bool Kernel) Split(string frame)
    {
        var isKernel = frame.EndsWith("_[k]", StringComparison.Ordinal);
        var text = isKernel ? frame[..^4] : frame;
        var bang = text.IndexOf('!', StringComparison.Ordinal);
        return bang < 0 ? ("", text, isKernel) : (text[..bang], text[(bang + 1)..], isKernel);
    }
}
