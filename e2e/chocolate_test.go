package e2e

// Interop with real Chocolate Doom: Debian's chocolate-doom and
// chocolate-server (wire version "Chocolate Doom 3.0.0", protocol
// CHOCOLATE_DOOM_0) with Freedoom: Phase 2, headless, every process on
// 127.0.0.1 on ports chosen here, every process ended by the test through
// its process group. e2e/setup-chocolate.sh installs the packages; without
// them these tests fail under CI=true and skip elsewhere.

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

const freedoom2 = "/usr/share/games/doom/freedoom2.wad"

// chocTools are the real binaries and ours.
type chocTools struct {
	doom, server, tcpdump, wad string
}

// needChocolate finds the real binaries; it fails the test under CI and
// skips it elsewhere when one is missing.
func needChocolate(t *testing.T, tcpdump bool) *chocTools {
	t.Helper()
	c := &chocTools{doom: findBinary("chocolate-doom", "/usr/games"), server: findBinary("chocolate-server", "/usr/games"), wad: freedoom2}
	var missing []string
	if c.doom == "" {
		missing = append(missing, "chocolate-doom")
	}
	if c.server == "" {
		missing = append(missing, "chocolate-server")
	}
	if _, err := os.Stat(c.wad); err != nil {
		missing = append(missing, c.wad)
	}
	if tcpdump {
		if c.tcpdump = findBinary("tcpdump", "/usr/sbin", "/usr/bin"); c.tcpdump == "" {
			missing = append(missing, "tcpdump")
		}
	}
	requireInstalled(t, missing)
	return c
}

// requireInstalled fails the test under CI, and skips it elsewhere, when
// something the interop tests need is missing.
func requireInstalled(t *testing.T, missing []string) {
	t.Helper()
	if len(missing) > 0 {
		msg := fmt.Sprintf("missing %s: run sh e2e/setup-chocolate.sh as root", strings.Join(missing, ", "))
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip("SKIPPED, real Chocolate Doom interop not tested: " + msg)
	}
}

// findBinary finds an executable on the PATH or in one of dirs; "" when
// there is none.
func findBinary(name string, dirs ...string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	for _, d := range dirs {
		if p := filepath.Join(d, name); isExecutable(p) {
			return p
		}
	}
	return ""
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir() && fi.Mode()&0o111 != 0
}

// moduleDir is the repository's top folder.
func moduleDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

// ticnetBuild builds ticnet-server, ticnet-client and ticnet-replay once
// per run.
var ticnetBuild struct {
	sync.Once
	dir string
	err error
}

type ticnetBins struct{ server, client, replay string }

func buildTicnet(t *testing.T) ticnetBins {
	t.Helper()
	ticnetBuild.Do(func() {
		dir, err := os.MkdirTemp("", "ticnet-bin-")
		if err != nil {
			ticnetBuild.err = err
			return
		}
		ticnetBuild.dir = dir
		cmd := exec.Command("go", "build", "-o", dir+string(filepath.Separator),
			"./netcore/cmd/ticnet-server", "./netcore/cmd/ticnet-client", "./netcore/cmd/ticnet-replay")
		cmd.Dir = moduleDir()
		if out, err := cmd.CombinedOutput(); err != nil {
			ticnetBuild.err = fmt.Errorf("building ticnet-server, ticnet-client and ticnet-replay: %v\n%s", err, out)
		}
	})
	if ticnetBuild.err != nil {
		t.Fatal(ticnetBuild.err)
	}
	return ticnetBins{server: filepath.Join(ticnetBuild.dir, "ticnet-server"),
		client: filepath.Join(ticnetBuild.dir, "ticnet-client"), replay: filepath.Join(ticnetBuild.dir, "ticnet-replay")}
}

// proc is a process a test started, in a process group of its own, with
// its stdout and stderr in one file.
type proc struct {
	name string
	cmd  *exec.Cmd
	out  string
	done chan struct{}
	err  error // what Wait returned, once done is closed
}

func startProc(t *testing.T, dir, name string, env []string, bin string, args ...string) *proc {
	t.Helper()
	p := &proc{name: name, out: filepath.Join(dir, name+".out"), done: make(chan struct{})}
	f, err := os.Create(p.out)
	if err != nil {
		t.Fatal(err)
	}
	p.cmd = exec.Command(bin, args...)
	p.cmd.Dir = dir
	p.cmd.Stdout, p.cmd.Stderr = f, f
	p.cmd.Env = append(os.Environ(), env...)
	p.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := p.cmd.Start(); err != nil {
		f.Close()
		t.Fatalf("starting %s: %v", name, err)
	}
	go func() {
		p.err = p.cmd.Wait()
		f.Close()
		close(p.done)
	}()
	t.Cleanup(func() {
		p.signal(syscall.SIGKILL)
		<-p.done
		if t.Failed() {
			t.Logf("--- %s (pid %d), last lines of its output:\n%s", name, p.cmd.Process.Pid, tail(p.output(), 25))
		}
	})
	return p
}

// signal sends sig to the process's group.
func (p *proc) signal(sig syscall.Signal) {
	if p.alive() {
		syscall.Kill(-p.cmd.Process.Pid, sig)
	}
}

func (p *proc) alive() bool {
	select {
	case <-p.done:
		return false
	default:
		return true
	}
}

// wait waits for the process to end by itself.
func (p *proc) wait(t *testing.T, limit time.Duration) {
	t.Helper()
	select {
	case <-p.done:
	case <-time.After(limit):
		t.Fatalf("%s still running after %v", p.name, limit)
	}
}

func (p *proc) output() string {
	b, _ := os.ReadFile(p.out)
	return string(b)
}

func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// waitUntil polls cond every 50 ms until it holds, or fails the test.
func waitUntil(t *testing.T, what string, limit time.Duration, cond func() bool) {
	t.Helper()
	for end := time.Now().Add(limit); !cond(); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("%s: not within %v", what, limit)
		}
	}
}

// waitOutput waits for a line of p's output to match re.
func waitOutput(t *testing.T, p *proc, re string, limit time.Duration) {
	t.Helper()
	rx := regexp.MustCompile(re)
	waitUntil(t, fmt.Sprintf("%s printing %q", p.name, re), limit, func() bool {
		if !p.alive() && !rx.MatchString(p.output()) {
			t.Fatalf("%s exited (%v) without printing %q", p.name, p.err, re)
		}
		return rx.MatchString(p.output())
	})
}

func freeUDPPort(t *testing.T) int {
	t.Helper()
	c, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.LocalAddr().(*net.UDPAddr).Port
}

// realClient starts chocolate-doom headless, connecting to port.
func (c *chocTools) realClient(t *testing.T, dir, name string, port int, extra ...string) *proc {
	t.Helper()
	home := filepath.Join(dir, name+"-home")
	if err := os.MkdirAll(home, 0o755); err != nil {
		t.Fatal(err)
	}
	args := append([]string{"-iwad", c.wad, "-connect", fmt.Sprintf("127.0.0.1:%d", port),
		"-nosound", "-nomusic", "-nogui", "-window", "-netlog", filepath.Join(dir, name+".netlog")}, extra...)
	return startProc(t, dir, name, []string{"HOME=" + home, "SDL_VIDEODRIVER=dummy", "SDL_AUDIODRIVER=dummy"},
		c.doom, args...)
}

// realServer starts chocolate-server and waits until it answers a QUERY.
// withRealServer starts a real chocolate-server on a free port of
// 127.0.0.1, in a new folder, and returns the tools, ticnet's binaries,
// the folder and the port: the start of every test that plays on a real
// server.
func withRealServer(t *testing.T) (*chocTools, ticnetBins, string, int) {
	t.Helper()
	ct := needChocolate(t, false)
	bin := buildTicnet(t)
	dir := t.TempDir()
	port := freeUDPPort(t)
	ct.realServer(t, dir, port)
	return ct, bin, dir, port
}

func (c *chocTools) realServer(t *testing.T, dir string, port int) *proc {
	t.Helper()
	p := startProc(t, dir, "chocolate-server", nil, c.server, "-privateserver", "-port", strconv.Itoa(port),
		"-netlog", filepath.Join(dir, "chocolate-server.netlog"))
	waitUntil(t, "chocolate-server answering QUERY", 10*time.Second, func() bool { return answersQuery(port) })
	return p
}

// answersQuery sends QUERY (type 13) and reports whether QUERY_RESPONSE
// (type 14) comes back.
func answersQuery(port int) bool {
	c, err := net.Dial("udp4", fmt.Sprintf("127.0.0.1:%d", port))
	if err != nil {
		return false
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(200 * time.Millisecond))
	if _, err := c.Write([]byte{0, 13}); err != nil {
		return false
	}
	b := make([]byte, 1500)
	n, err := c.Read(b)
	return err == nil && n >= 2 && b[0] == 0 && b[1] == 14
}

// serverTic is a line of ticnet-server's -ticlog.
type serverTic struct {
	Tic      uint32 `json:"tic"`
	Players  []int  `json:"players"`
	Received []int  `json:"received"`
}

// clientTic is a line of ticnet-client's -record.
type clientTic struct {
	Tic  uint32 `json:"tic"`
	Cmds []struct {
		Player      int   `json:"player"`
		Forward     int8  `json:"forward"`
		Side        int8  `json:"side"`
		Turn        int16 `json:"turn"`
		Buttons     uint8 `json:"buttons"`
		Consistency uint8 `json:"consistency"`
		Chat        uint8 `json:"chat"`
	} `json:"cmds"`
}

// readJSONLines reads every complete line of path.
func readJSONLines[T any](t *testing.T, path string) []T {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	var out []T
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			break // a line still being written
		}
		out = append(out, v)
	}
	return out
}

func samePlayers(a []int, b ...int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// Acceptance 1 and 4: two real clients, the first the controller with
// -nodes 2, play 500 tics through ticnet-server; tcpdump captures the
// server's port and ticnet-dump decodes every packet of the capture.
func TestRealClientsPlayThroughTicnetServer(t *testing.T) {
	t.Parallel()
	ct := needChocolate(t, true)
	bin := buildTicnet(t)
	dir := t.TempDir()
	port := freeUDPPort(t)
	capture := filepath.Join(dir, "game.pcap")
	dump := startProc(t, dir, "tcpdump", nil, ct.tcpdump, "-i", "lo", "--immediate-mode", "-U", "-n", "-c", "100000", "-w", capture,
		"udp", "port", strconv.Itoa(port))
	waitOutput(t, dump, "listening on", 10*time.Second)
	ticlog := filepath.Join(dir, "tics.jsonl")
	srv := startProc(t, dir, "ticnet-server", nil, bin.server, "-addr", "127.0.0.1", "-port", strconv.Itoa(port),
		"-ticlog", ticlog)
	waitOutput(t, srv, "listening on", 10*time.Second)
	c1 := ct.realClient(t, dir, "controller", port, "-nodes", "2", "-warp", "1", "-skill", "4")
	waitOutput(t, srv, `join: .* player 0, protocol CHOCOLATE_DOOM_0`, 10*time.Second)
	c2 := ct.realClient(t, dir, "player2", port)
	waitOutput(t, srv, `join: .* player 1, protocol CHOCOLATE_DOOM_0`, 10*time.Second)
	waitOutput(t, srv, `game start: protocol CHOCOLATE_DOOM_0, 2 players`, 20*time.Second)

	const want = 500
	waitUntil(t, fmt.Sprintf("tic %d let go by the server", want), 60*time.Second, func() bool {
		if !c1.alive() || !c2.alive() {
			t.Fatalf("a real client quit: controller alive %v, player 2 alive %v", c1.alive(), c2.alive())
		}
		return len(readJSONLines[serverTic](t, ticlog)) > want
	})
	tics := readJSONLines[serverTic](t, ticlog)
	for i, tic := range tics[:want+1] {
		if tic.Tic != uint32(i) || !samePlayers(tic.Players, 0, 1) || !samePlayers(tic.Received, 0, 1) {
			t.Fatalf("ticlog line %d: %+v; want tic %d with both players' commands received", i, tic, i)
		}
	}
	if !c1.alive() || !c2.alive() {
		t.Fatalf("a real client quit: controller alive %v, player 2 alive %v", c1.alive(), c2.alive())
	}
	t.Logf("ticnet-server had both players' commands for every tic 0..%d (%d tics so far); both real clients running",
		want, len(tics))

	// SIGINT: the server tells both clients it is going away, and they
	// acknowledge.
	srv.signal(syscall.SIGINT)
	srv.wait(t, 10*time.Second)
	if srv.err != nil {
		t.Fatalf("ticnet-server after SIGINT: %v", srv.err)
	}
	if n := strings.Count(srv.output(), ": server left"); n != 2 {
		t.Fatalf("ticnet-server told %d players it was leaving, want 2", n)
	}
	time.Sleep(500 * time.Millisecond) // for tcpdump to write the last packets
	dump.signal(syscall.SIGINT)
	dump.wait(t, 10*time.Second)
	packets := readPcap(t, capture)
	if len(packets) < 2*want {
		t.Fatalf("the capture holds %d packets", len(packets))
	}
	told, acked := map[int]bool{}, map[int]bool{}
	for _, p := range packets {
		switch {
		case p.from == port && bytes.Equal(p.payload, []byte{0, 8}):
			told[p.to] = true
		case p.to == port && bytes.Equal(p.payload, []byte{0, 9}):
			acked[p.from] = true
		}
	}
	if len(told) != 2 || len(acked) != 2 {
		t.Fatalf("on SIGINT the server sent DISCONNECT to %d clients and %d acknowledged, want 2 and 2", len(told), len(acked))
	}
	t.Run("ticnet-dump decodes every packet of the capture", func(t *testing.T) {
		decoded, err := runTicnetDump(t, capture, port)
		if err != nil {
			t.Fatal(err)
		}
		if decoded < len(packets) {
			t.Fatalf("ticnet-dump printed %d objects for %d packets", decoded, len(packets))
		}
		t.Logf("ticnet-dump decoded all %d packets of the capture", len(packets))
	})
}

// udpPacket is a UDP datagram of a capture.
type udpPacket struct {
	from, to int // ports
	payload  []byte
}

// readPcap reads the UDP datagrams of a classic pcap file captured on the
// loopback interface (Ethernet framing, IPv4).
func readPcap(t *testing.T, path string) []udpPacket {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 24 {
		t.Fatalf("%s: %d bytes, no pcap header", path, len(data))
	}
	var bo binary.ByteOrder = binary.LittleEndian
	switch binary.LittleEndian.Uint32(data) {
	case 0xa1b2c3d4, 0xa1b23c4d:
	case 0xd4c3b2a1, 0x4d3cb2a1:
		bo = binary.BigEndian
	default:
		t.Fatalf("%s: not a pcap file", path)
	}
	if link := bo.Uint32(data[20:]); link != 1 {
		t.Fatalf("%s: link type %d, want Ethernet", path, link)
	}
	var out []udpPacket
	for off := 24; off+16 <= len(data); {
		n := int(bo.Uint32(data[off+8:]))
		frame := data[off+16 : min(len(data), off+16+n)]
		off += 16 + n
		if len(frame) < 14+20+8 {
			t.Fatalf("%s: a %d-byte frame", path, len(frame))
		}
		ip := frame[14:]
		udp := ip[int(ip[0]&0xf)*4:]
		out = append(out, udpPacket{from: int(binary.BigEndian.Uint16(udp)), to: int(binary.BigEndian.Uint16(udp[2:])),
			payload: udp[8:]})
	}
	return out
}

// runTicnetDump runs the dissector on a capture of the server at port and
// returns how many JSON objects it printed; it fails if the dissector exits
// non-zero, which it does when a packet does not decode.
func runTicnetDump(t *testing.T, capture string, port int) (int, error) {
	t.Helper()
	pkg := filepath.Join(moduleDir(), "netcore", "cmd", "ticnet-dump")
	if _, err := os.Stat(pkg); err != nil {
		msg := "netcore/cmd/ticnet-dump is missing: the capture could not be dissected"
		if os.Getenv("CI") != "" {
			return 0, errors.New(msg)
		}
		t.Skip("SKIPPED: " + msg)
	}
	bin := filepath.Join(t.TempDir(), "ticnet-dump")
	build := exec.Command("go", "build", "-o", bin, "./netcore/cmd/ticnet-dump")
	build.Dir = moduleDir()
	if out, err := build.CombinedOutput(); err != nil {
		return 0, fmt.Errorf("building ticnet-dump: %v\n%s", err, out)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, "-port", strconv.Itoa(port), capture)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	objects := 0
	dec := json.NewDecoder(&stdout)
	for {
		var v json.RawMessage
		if dec.Decode(&v) != nil {
			break
		}
		objects++
	}
	if err != nil {
		return objects, fmt.Errorf("ticnet-dump %s: %v (it exits non-zero when a packet does not decode)\n%s",
			capture, err, tail(stderr.String(), 20))
	}
	return objects, nil
}

// Acceptance 2: real chocolate-server, ticnet-client as the controller
// launching a cooperative game without monsters, one real client. The
// ticnet-client walks, turns and fires (-input doom) for 600 tics; the real
// client must keep running, and so check every one of those commands'
// consistency bytes past tic 128; and the ticnet-client's record must hold
// the real client's commands for every tic, in order, some of them not
// empty (its consistency byte changes once the ticnet-client's shots push
// it).
func TestTicnetClientLeadsRealServerGameWithRealClient(t *testing.T) {
	t.Parallel()
	ct, bin, dir, port := withRealServer(t)
	record := filepath.Join(dir, "record.jsonl")
	const tics = 600
	tc := startProc(t, dir, "ticnet-client", nil, bin.client, "-server", fmt.Sprintf("127.0.0.1:%d", port),
		"-name", "ticbot", "-iwad", ct.wad, "-nodes", "2", "-nomonsters", "-skill", "3", "-input", "doom",
		"-record", record, "-tics", strconv.Itoa(tics), "-protocols", "ticnet,chocolate")
	waitOutput(t, tc, "connected, protocol CHOCOLATE_DOOM_0", 10*time.Second)
	rc := ct.realClient(t, dir, "real", port)
	waitOutput(t, tc, "game start: player 0 of 2", 20*time.Second)
	tc.wait(t, 60*time.Second)
	if tc.err != nil {
		t.Fatalf("ticnet-client: %v", tc.err)
	}
	if !rc.alive() {
		t.Fatalf("the real client quit (%v)", rc.err)
	}

	rec := readJSONLines[clientTic](t, record)
	if len(rec) != tics {
		t.Fatalf("%d tics recorded, want %d", len(rec), tics)
	}
	var moved, turned, fired, realNonEmpty, realChanges int
	var lastConsistency uint8
	for i, tic := range rec {
		if tic.Tic != uint32(i) || len(tic.Cmds) != 2 || tic.Cmds[0].Player != 0 || tic.Cmds[1].Player != 1 {
			t.Fatalf("record line %d: %+v; want tic %d with players 0 and 1", i, tic, i)
		}
		own, real := tic.Cmds[0], tic.Cmds[1]
		if i > 128 {
			if own.Forward != 0 || own.Side != 0 {
				moved++
			}
			if own.Turn != 0 {
				turned++
			}
			if own.Buttons&1 != 0 {
				fired++
			}
		}
		if real.Forward != 0 || real.Side != 0 || real.Turn != 0 || real.Buttons != 0 || real.Consistency != 0 || real.Chat != 0 {
			realNonEmpty++
		}
		if real.Consistency != lastConsistency {
			realChanges++
			lastConsistency = real.Consistency
		}
	}
	t.Logf("past tic 128 the ticnet-client moved in %d tics, turned in %d, fired in %d; the real client's commands "+
		"were non-empty in %d tics, its consistency byte changed %d times", moved, turned, fired, realNonEmpty, realChanges)
	if moved == 0 || turned == 0 || fired == 0 {
		t.Fatal("the ticnet-client did not move, turn and fire past tic 128")
	}
	if realNonEmpty == 0 {
		t.Fatal("every command of the real client was empty")
	}
	time.Sleep(time.Second)
	if !rc.alive() {
		t.Fatalf("the real client quit after the ticnet-client left (%v)", rc.err)
	}
}

// The check that acceptance 2 passes is real: a ticnet-client that moves
// in a way its consistency model cannot follow (-input random) makes the
// real client quit with "consistency failure" when it runs the tic the
// ticnet-client predicts, 129 tics after its first such move.
func TestRealClientQuitsWhenAPeersConsistencyByteIsWrong(t *testing.T) {
	t.Parallel()
	ct, bin, dir, port := withRealServer(t)
	record := filepath.Join(dir, "record.jsonl")
	tc := startProc(t, dir, "ticnet-client", nil, bin.client, "-server", fmt.Sprintf("127.0.0.1:%d", port),
		"-name", "ticbot", "-iwad", ct.wad, "-nodes", "2", "-nomonsters", "-input", "random", "-record", record)
	waitOutput(t, tc, "connected", 10*time.Second)
	rc := ct.realClient(t, dir, "real", port)
	rc.wait(t, 40*time.Second)
	if !strings.Contains(rc.output(), "consistency failure") {
		t.Fatalf("the real client quit without a consistency failure (%v)", rc.err)
	}
	m := regexp.MustCompile(`consistency failure at tic (\d+)`).FindStringSubmatch(tc.output())
	if m == nil {
		t.Fatal("the ticnet-client did not predict a consistency failure")
	}
	predicted, _ := strconv.Atoi(m[1])
	waitUntil(t, "the ticnet-client's record showing the real player gone", 10*time.Second, func() bool {
		rec := readJSONLines[clientTic](t, record)
		return len(rec) > 0 && len(rec[len(rec)-1].Cmds) == 1
	})
	last := -1
	for _, tic := range readJSONLines[clientTic](t, record) {
		for _, c := range tic.Cmds {
			if c.Player == 1 {
				last = int(tic.Tic)
			}
		}
	}
	t.Logf("real client: %q; its last tic %d, predicted failure at tic %d",
		regexp.MustCompile(`consistency failure[^\n]*`).FindString(rc.output()), last, predicted)
	// The real client quits while it runs the predicted tic, having built
	// and sent its commands for at most 8 tics more.
	if last < predicted-1 || last > predicted+8 {
		t.Fatalf("the real player's last tic was %d, the failure was predicted at tic %d", last, predicted)
	}
}

// Acceptance 3: three real clients play through ticnet-server; one is
// killed; the server reports it timed out after the reference's 30 s and
// the other two play on.
func TestKilledRealClientTimesOutAndTheOthersPlayOn(t *testing.T) {
	t.Parallel()
	ct := needChocolate(t, false)
	bin := buildTicnet(t)
	dir := t.TempDir()
	port := freeUDPPort(t)
	ticlog := filepath.Join(dir, "tics.jsonl")
	srv := startProc(t, dir, "ticnet-server", nil, bin.server, "-addr", "127.0.0.1", "-port", strconv.Itoa(port),
		"-ticlog", ticlog)
	waitOutput(t, srv, "listening on", 10*time.Second)
	var clients []*proc
	for i := range 3 {
		var extra []string
		if i == 0 {
			extra = []string{"-nodes", "3", "-warp", "1", "-skill", "4"}
		}
		clients = append(clients, ct.realClient(t, dir, fmt.Sprintf("player%d", i+1), port, extra...))
		waitOutput(t, srv, fmt.Sprintf(`join: .* player %d, protocol CHOCOLATE_DOOM_0`, i), 10*time.Second)
	}
	waitOutput(t, srv, `game start: protocol CHOCOLATE_DOOM_0, 3 players`, 20*time.Second)
	waitUntil(t, "tic 100", 30*time.Second, func() bool { return len(readJSONLines[serverTic](t, ticlog)) > 100 })

	clients[2].signal(syscall.SIGKILL)
	killed := time.Now()
	clients[2].wait(t, 5*time.Second)
	waitOutput(t, srv, `leave: .* player 2: timed out`, 45*time.Second)
	after := time.Since(killed)
	t.Logf("ticnet-server reported player 2 timed out %.1f s after it was killed", after.Seconds())
	if after < 29*time.Second {
		t.Fatalf("timed out after %v, before the reference's 30 s", after)
	}

	atTimeout := len(readJSONLines[serverTic](t, ticlog))
	waitUntil(t, "100 more tics after the timeout", 30*time.Second, func() bool {
		return len(readJSONLines[serverTic](t, ticlog)) > atTimeout+100
	})
	tics := readJSONLines[serverTic](t, ticlog)
	three := 0 // tics with all three players' commands: those before the kill
	for three < len(tics) && samePlayers(tics[three].Received, 0, 1, 2) {
		three++
	}
	for i, tic := range tics {
		if tic.Tic != uint32(i) {
			t.Fatalf("ticlog line %d is tic %d", i, tic.Tic)
		}
		if i >= three && (!samePlayers(tic.Players, 0, 1) || !samePlayers(tic.Received, 0, 1)) {
			t.Fatalf("tic %d: players %v, received %v; want the two remaining players' only", i, tic.Players, tic.Received)
		}
	}
	if three < 100 || len(tics)-three < 100 {
		t.Fatalf("%d tics with three players, %d with two", three, len(tics)-three)
	}
	if !clients[0].alive() || !clients[1].alive() {
		t.Fatalf("a remaining real client quit: player 1 alive %v, player 2 alive %v", clients[0].alive(), clients[1].alive())
	}
	t.Logf("tics 0..%d had three players' commands, tics %d..%d the two remaining players'; both still running",
		three-1, three, len(tics)-1)
}

// ticnet-client without -iwad joins a real chocolate-server's game beside a
// real client that loads freedoom2.wad, as Debian installs it: it describes
// the IWAD a real client would load here (freedoom2.wad, the only one Debian
// packages for Doom II), so the server, which adopted the real client's
// game, takes it, and it reads its player start from it, so the real
// client's consistency checks of its commands hold for 300 tics.
func TestTicnetClientWithoutIWADJoinsARealClientsGame(t *testing.T) {
	t.Parallel()
	ct, bin, dir, port := withRealServer(t)
	rc := ct.realClient(t, dir, "real", port, "-nodes", "2", "-nomonsters")
	time.Sleep(2 * time.Second) // the real client first: the server adopts its game
	const tics = 300
	tc := startProc(t, dir, "ticnet-client", nil, bin.client, "-server", fmt.Sprintf("127.0.0.1:%d", port),
		"-name", "noiwad", "-input", "idle", "-tics", strconv.Itoa(tics))
	waitOutput(t, tc, "describing "+regexp.QuoteMeta(ct.wad), 10*time.Second)
	waitOutput(t, tc, "game start: player 1 of 2", 20*time.Second)
	tc.wait(t, 60*time.Second)
	if tc.err != nil {
		t.Fatalf("ticnet-client: %v\n%s", tc.err, tc.output())
	}
	if !rc.alive() {
		t.Fatalf("the real client quit (%v)", rc.err)
	}
}
