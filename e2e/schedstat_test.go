package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/chromedp/chromedp"
)

// cpuShare is how the renderers' main threads (the pages' JS and wasm,
// the net loop's passes included) shared the machine's CPUs over a
// while: the time they ran, and the time they were ready to run but
// waited for a CPU (Linux's /proc/<pid>/task/<pid>/schedstat). A pass
// whose thread waits is that much longer by the page's clock: on a busy
// machine the waits, not the code, make a p99.
type cpuShare struct {
	at   map[int][2]time.Duration // per renderer: run, wait
	when time.Time
}

// startCPUShare takes the renderers' counters now; nil where /proc is not
// Linux's.
func startCPUShare(bctx context.Context) *cpuShare {
	c := &cpuShare{at: map[int][2]time.Duration{}, when: time.Now()}
	for _, pid := range renderers(bctx) {
		if rw, ok := schedstat(pid); ok {
			c.at[pid] = rw
		}
	}
	if len(c.at) == 0 {
		return nil
	}
	return c
}

// perSecond returns, per second since start and per renderer that ran at
// least 10 ms a second (the tabs'), the mean of their time on a CPU and
// of their time waiting for one.
func (c *cpuShare) perSecond() (run, wait time.Duration) {
	secs := time.Since(c.when).Seconds()
	n := 0
	for pid, was := range c.at {
		rw, ok := schedstat(pid)
		if !ok || float64(rw[0]-was[0])/secs < float64(10*time.Millisecond) {
			continue
		}
		run += time.Duration(float64(rw[0]-was[0]) / secs)
		wait += time.Duration(float64(rw[1]-was[1]) / secs)
		n++
	}
	if n == 0 {
		return 0, 0
	}
	return run / time.Duration(n), wait / time.Duration(n)
}

// renderers returns the PIDs of the browser's renderer processes.
func renderers(bctx context.Context) []int {
	p := chromedp.FromContext(bctx).Browser.Process()
	if p == nil {
		return nil
	}
	dirs, _ := filepath.Glob("/proc/[0-9]*")
	parent := map[int]int{}
	for _, d := range dirs {
		stat, err := os.ReadFile(filepath.Join(d, "stat"))
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces, so split after ')'.
		s := string(stat)
		f := strings.Fields(s[strings.LastIndexByte(s, ')')+1:])
		pid, _ := strconv.Atoi(filepath.Base(d))
		if len(f) > 1 {
			parent[pid], _ = strconv.Atoi(f[1])
		}
	}
	var out []int
	for pid := range parent {
		cmd, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "cmdline"))
		if err != nil || !strings.Contains(string(cmd), "--type=renderer") {
			continue
		}
		for q := pid; q > 1; q = parent[q] {
			if q == p.Pid {
				out = append(out, pid)
				break
			}
		}
	}
	return out
}

// schedstat returns the time a process's main thread has run on a CPU and
// waited for one.
func schedstat(pid int) ([2]time.Duration, bool) {
	b, err := os.ReadFile(filepath.Join("/proc", strconv.Itoa(pid), "task", strconv.Itoa(pid), "schedstat"))
	f := strings.Fields(string(b))
	if err != nil || len(f) < 2 {
		return [2]time.Duration{}, false
	}
	run, err1 := strconv.ParseInt(f[0], 10, 64)
	wait, err2 := strconv.ParseInt(f[1], 10, 64)
	return [2]time.Duration{time.Duration(run), time.Duration(wait)}, err1 == nil && err2 == nil
}
