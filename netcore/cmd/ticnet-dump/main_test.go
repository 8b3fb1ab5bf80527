package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"

	"github.com/ticnet/ticnet/netcore/internal/specvectors"
	"github.com/ticnet/ticnet/netcore/wire"

	"github.com/stretchr/testify/require"
)

// vec is one packet of shared/spec/vectors.
type vec struct {
	file       string
	clientPort uint16
	toServer   bool
	typ        string // the annotated type name, e.g. "GAMEDATA"
	reliable   bool
	pkt        []byte
}

// loadVectors reads the vector files (CI has them; without them the test
// fails saying so).
func loadVectors(t testing.TB) map[string][]vec {
	dir := specvectors.Dir(t)
	files, _ := filepath.Glob(filepath.Join(dir, "*.txt"))
	require.NotEqual(t, 0, len(files), "no vector files in %s", dir)
	header := regexp.MustCompile(`^### packet #\d+ .* (\S+) -> (\S+)\s+len=(\d+)`)
	typeLine := regexp.MustCompile(`type\(u16 BE\)\s+\d+ (\S+)( \|RELIABLE)?`)
	out := map[string][]vec{}
	for _, f := range files {
		data, err := os.ReadFile(f)
		require.NoError(t, err)
		name := filepath.Base(f)
		var cur *vec
		for _, l := range strings.Split(string(data), "\n") {
			if m := header.FindStringSubmatch(l); m != nil {
				out[name] = append(out[name], vec{file: name, toServer: m[2] == "server:2342"})
				cur = &out[name][len(out[name])-1]
				peer := m[1]
				if !cur.toServer {
					peer = m[2]
				}
				p, err := strconv.Atoi(strings.TrimPrefix(peer, "client:"))
				require.NoError(t, err, "%s: %q", name, l)
				cur.clientPort = uint16(p)
			} else if strings.HasPrefix(l, "HEX ") {
				cur.pkt, err = hex.DecodeString(l[4:])
				require.NoError(t, err)
			} else if m := typeLine.FindStringSubmatch(l); m != nil {
				cur.typ, cur.reliable = m[1], m[2] != ""
			}
		}
	}
	return out
}

// udpFrame wraps a payload in IPv4 and UDP headers (127.0.0.1 both ways).
func udpFrame(payload []byte, srcPort, dstPort uint16) []byte {
	ip := make([]byte, 20+8, 28+len(payload))
	ip[0], ip[8], ip[9] = 0x45, 64, 17
	binary.BigEndian.PutUint16(ip[2:], uint16(28+len(payload)))
	copy(ip[12:], []byte{127, 0, 0, 1})
	copy(ip[16:], []byte{127, 0, 0, 1})
	binary.BigEndian.PutUint16(ip[20:], srcPort)
	binary.BigEndian.PutUint16(ip[22:], dstPort)
	binary.BigEndian.PutUint16(ip[24:], uint16(8+len(payload)))
	return append(ip, payload...)
}

// ethernet puts an IPv4 packet in an Ethernet frame, padded to 60 bytes as
// on the wire.
func ethernet(ip []byte) []byte {
	f := make([]byte, 14, 14+len(ip)+46)
	copy(f, []byte{2, 0, 0, 0, 0, 1, 2, 0, 0, 0, 0, 2})
	binary.BigEndian.PutUint16(f[12:], 0x0800)
	f = append(f, ip...)
	for len(f) < 60 {
		f = append(f, 0)
	}
	return f
}

// pcapFile builds a classic pcap file.
type pcapFile struct {
	order binary.ByteOrder
	nano  bool
	link  uint32
}

func (p pcapFile) build(frames ...[]byte) []byte {
	bo := p.order
	if bo == nil {
		bo = binary.LittleEndian
	}
	h := make([]byte, 24)
	magic := uint32(0xa1b2c3d4)
	if p.nano {
		magic = 0xa1b23c4d
	}
	bo.PutUint32(h, magic)
	bo.PutUint16(h[4:], 2)
	bo.PutUint16(h[6:], 4)
	bo.PutUint32(h[16:], 262144)
	bo.PutUint32(h[20:], p.link)
	for i, f := range frames {
		r := make([]byte, 16)
		bo.PutUint32(r, uint32(1700000000+i))
		bo.PutUint32(r[4:], uint32(1000*i+7))
		bo.PutUint32(r[8:], uint32(len(f)))
		bo.PutUint32(r[12:], uint32(len(f)))
		h = append(append(h, r...), f...)
	}
	return h
}

// pcapngOf rewrites a classic pcap file as pcapng with pcapgo's writer
// (which keeps nanoseconds), each file's packets on an interface of its
// own.
func pcapngOf(t testing.TB, pcaps ...[]byte) []byte {
	var b bytes.Buffer
	var w *pcapgo.NgWriter
	for i, data := range pcaps {
		r, err := pcapgo.NewReader(bytes.NewReader(data))
		require.NoError(t, err)
		intf := pcapgo.DefaultNgInterface
		intf.LinkType = r.LinkType()
		if i == 0 {
			w, err = pcapgo.NewNgWriterInterface(&b, intf, pcapgo.DefaultNgWriterOptions)
		} else {
			_, err = w.AddInterface(intf)
		}
		require.NoError(t, err)
		for {
			frame, ci, err := r.ReadPacketData()
			if err == io.EOF {
				break
			}
			require.NoError(t, err)
			ci.InterfaceIndex = i
			err = w.WritePacket(ci, frame)
			require.NoError(t, err)
		}
	}
	err := w.Flush()
	require.NoError(t, err)
	return b.Bytes()
}

// framesOf wraps vector packets in UDP between their client port and 2342.
func framesOf(vs []vec, wrap func([]byte) []byte) [][]byte {
	var fs [][]byte
	for _, v := range vs {
		src, dst := v.clientPort, uint16(2342)
		if !v.toServer {
			src, dst = dst, src
		}
		fs = append(fs, wrap(udpFrame(v.pkt, src, dst)))
	}
	return fs
}

// dumpRun runs the command on inputs written to files (or on stdin when
// stdin is not nil) and returns the JSON objects, stderr and the status.
func dumpRun(t *testing.T, args []string, stdin []byte, files ...[]byte) ([]map[string]any, string, int) {
	t.Helper()
	dir := t.TempDir()
	for i, f := range files {
		name := filepath.Join(dir, fmt.Sprintf("in%d", i))
		err := os.WriteFile(name, f, 0o600)
		require.NoError(t, err)
		args = append(args, name)
	}
	var out, errOut bytes.Buffer
	status := run(args, bytes.NewReader(stdin), &out, &errOut)
	var recs []map[string]any
	for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		if line == "" {
			continue
		}
		dec := json.NewDecoder(strings.NewReader(line))
		dec.UseNumber()
		var r map[string]any
		err := dec.Decode(&r)
		require.NoError(t, err, "output line is not JSON: %v\n%s", err, line)
		recs = append(recs, r)
	}
	return recs, errOut.String(), status
}

// get walks a decoded JSON object: get(r, "fields", "Tics", 0, "Latency").
func get(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch k := p.(type) {
		case string:
			m, ok := v.(map[string]any)
			require.True(t, ok, "%v: not an object at %q", path, k)
			v, ok = m[k]
			require.True(t, ok, "%v: no %q in %v", path, k, m)
		case int:
			l, ok := v.([]any)
			require.True(t, ok, "%v: no element %d", path, k)
			require.Less(t, k, len(l), "%v: no element %d", path, k)
			v = l[k]
		}
	}
	return v
}

func num(t *testing.T, v any) int64 {
	t.Helper()
	n, ok := v.(json.Number)
	require.True(t, ok, "%v is not a number", v)
	i, err := n.Int64()
	require.NoError(t, err)
	return i
}

func TestPcapOfEveryVectorIsDissectedWithDirectionTypeAndFields(t *testing.T) {
	vectors := loadVectors(t)
	var vs []vec
	for _, name := range []string{"vectors-run1-handshake-gamedata.txt", "vectors-run2-consolemsg.txt"} {
		vs = append(vs, vectors[name]...)
	}
	data := pcapFile{link: 1}.build(framesOf(vs, ethernet)...)
	recs, stderr, status := dumpRun(t, nil, nil, data)
	require.Equal(t, 0, status, "status %d, stderr %q", status, stderr)
	require.Equal(t, "", stderr, "status %d, stderr %q", status, stderr)
	require.Equal(t, len(vs), len(recs), "%d objects for %d packets", len(recs), len(vs))
	require.NotEqual(t, 0, len(vs), "%d objects for %d packets", len(recs), len(vs))
	prevTime := ""
	for i, r := range recs {
		v := vs[i]
		wantDir, client := "S>C", fmt.Sprintf("127.0.0.1:%d", v.clientPort)
		if v.toServer {
			wantDir = "C>S"
		}
		require.Equal(t, int64(i), num(t, r["n"]), "packet %d (%s %s): %v", i, wantDir, v.typ, r)
		require.Equal(t, wantDir, r["dir"], "packet %d (%s %s): %v", i, wantDir, v.typ, r)
		require.Equal(t, v.typ, r["type"], "packet %d (%s %s): %v", i, wantDir, v.typ, r)
		require.Equal(t, int64(len(v.pkt)), num(t, r["len"]), "packet %d (%s %s): %v", i, wantDir, v.typ, r)
		require.Equal(t, v.reliable, r["reliable"], "packet %d (%s %s): %v", i, wantDir, v.typ, r)
		require.Equal(t, v.reliable, (r["seq"] != nil), "packet %d (%s %s): %v", i, wantDir, v.typ, r)
		require.NotNil(t, r["fields"], "packet %d (%s %s): %v", i, wantDir, v.typ, r)
		require.Nil(t, r["error"], "packet %d (%s %s): %v", i, wantDir, v.typ, r)
		if v.toServer {
			require.Equal(t, client, r["src"], "packet %d: addresses %v -> %v", i, r["src"], r["dst"])
		}
		if !v.toServer {
			require.Equal(t, client, r["dst"], "packet %d: addresses %v -> %v", i, r["src"], r["dst"])
		}
		require.Nil(t, r["layout"], "packet %d: addresses %v -> %v", i, r["src"], r["dst"])
		tm := string(r["time"].(json.Number))
		require.True(t, regexp.MustCompile(`^17000000\d\d\.\d{6}$`).MatchString(tm), "packet %d: time %q after %q", i, tm, prevTime)
		require.Greater(t, tm, prevTime, "packet %d: time %q after %q", i, tm, prevTime)
		prevTime = tm
	}
	// Spot checks of fields, in wire order and the formats promised.
	require.Equal(t, "Grumpy Mancubus", get(t, recs[0], "fields", "PlayerName"), "SYN: %v", recs[0]["fields"])
	require.Equal(t, "0f9caf3cac3392deea003d3159a14f6156bd7a46", get(t, recs[0], "fields", "Connect", "WADSHA1"), "SYN: %v", recs[0]["fields"])
	require.Equal(t, int64(0x5b), num(t, get(t, recs[0], "fields", "Connect", "PlayerClass")), "SYN: %v", recs[0]["fields"])
	found := 0
	for i, r := range recs {
		switch {
		case r["type"] == "GAMEDATA" && r["dir"] == "S>C" && vs[i].pkt[5] == 2: // #834: player 1's consistancy 0x12, 0x3a
			for k, want := range []int64{0x12, 0x3a} {
				require.Equal(t, want, num(t, get(t, r, "fields", "Tics", k, "Cmds", "1", "Consistency")), "server GAMEDATA: %v", r["fields"])
				require.Equal(t, int64(2), num(t, get(t, r, "fields", "Tics", k, "InGame")), "server GAMEDATA: %v", r["fields"])
			}
			require.NotContains(t, get(t, r, "fields", "Tics", 0, "Cmds"), "0", "a player not in the tic is printed")
			found++
		case r["type"] == "GAMESTART" && r["dir"] == "S>C":
			require.Equal(t, int64(0x40), num(t, get(t, r, "fields", "Settings", "Random")), "GAMESTART: %v", r["fields"])
			require.Equal(t, int64(-1), num(t, get(t, r, "fields", "Settings", "LoadGame")), "GAMESTART: %v", r["fields"])
			found++
		case r["type"] == "CONSOLE_MESSAGE":
			require.Equal(t, "Client 'FakeGo' timed out and disconnected", get(t, r, "fields", "Text"), "CONSOLE_MESSAGE: %v", r)
			require.Equal(t, int64(1), num(t, r["seq"]), "CONSOLE_MESSAGE: %v", r)
			found++
		}
	}
	require.Equal(t, 3, found, "%d of the spot-checked packets found", found)
}

// errorsIn counts the objects that report an error.
func errorsIn(recs []map[string]any) int {
	bad := 0
	for _, r := range recs {
		if r["error"] != nil {
			bad++
		}
	}
	return bad
}

// chocolateLowres is a real lowres game: chocolate-doom 3.0.0 -privateserver
// -shorttics -nodes 2 (its own player on the in-process loopback) and
// ticnet-client -input doom on UDP, 80 tics, captured by tcpdump 4.99 on lo.
// The client's GAMESTART (n=7) has lowres_turn 0, the server's (n=11) 1,
// and the client turns by -2048 twice.
const chocolateLowres = "testdata/chocolate-lowres.pcap"

func TestLowresIsLearntFromTheServersGameStartOfARealCapture(t *testing.T) {
	data, err := os.ReadFile(chocolateLowres)
	require.NoError(t, err)
	recs, stderr, status := dumpRun(t, nil, nil, data)
	require.Equal(t, 0, status, "status %d, %d objects, %d errors, stderr %q", status, len(recs), errorsIn(recs), stderr)
	require.Equal(t, "", stderr, "status %d, %d objects, %d errors, stderr %q", status, len(recs), errorsIn(recs), stderr)
	require.Equal(t, 179, len(recs), "status %d, %d objects, %d errors, stderr %q", status, len(recs), errorsIn(recs), stderr)
	require.Equal(t, 0, errorsIn(recs), "status %d, %d objects, %d errors, stderr %q", status, len(recs), errorsIn(recs), stderr)
	var turns []int64
	gamedata := 0
	for _, r := range recs {
		if r["type"] != "GAMEDATA" {
			continue
		}
		gamedata++
		require.GreaterOrEqual(t, num(t, r["n"]), int64(11), "GAMEDATA not decoded by the server's GAMESTART: %v", r)
		require.Equal(t, int64(11), num(t, r["gamestart"]), "GAMEDATA not decoded by the server's GAMESTART: %v", r)
		require.Equal(t, true, get(t, r, "fields", "LowResTurn"), "GAMEDATA not decoded by the server's GAMESTART: %v", r)
		for k := range get(t, r, "fields", "Tics").([]any) {
			if d := get(t, r, "fields", "Tics", k).(map[string]any)["Diff"]; d != nil {
				if turn, ok := d.(map[string]any)["AngleTurn"]; ok && num(t, turn) != 0 {
					turns = append(turns, num(t, turn))
				}
			}
		}
	}
	require.Equal(t, 160, gamedata, "%d GAMEDATA, turns %v", gamedata, turns)
	require.Equal(t, "[-2048 -2048]", fmt.Sprint(turns), "%d GAMEDATA, turns %v", gamedata, turns)
	for _, n := range []int{7, 11} {
		r := recs[n]
		require.Equal(t, "GAMESTART", r["type"], "%v", r)
		require.Nil(t, r["gamestart"], "%v", r)
	}
	// Forced to two-byte turning, the turning packets fail.
	recs, _, status = dumpRun(t, []string{"-lowres=false"}, nil, data)
	require.Equal(t, 1, status, "-lowres=false: status %d, %d errors: %v", status, errorsIn(recs), recs[84])
	require.NotEqual(t, 0, errorsIn(recs), "-lowres=false: status %d, %d errors: %v", status, errorsIn(recs), recs[84])
	require.NotNil(t, recs[84]["error"], "-lowres=false: status %d, %d errors: %v", status, errorsIn(recs), recs[84])
	require.Nil(t, recs[84]["gamestart"], "-lowres=false: status %d, %d errors: %v", status, errorsIn(recs), recs[84])
}

// startPacket is a server's (or a ready client's) GAMESTART.
func startPacket(lowres bool, seq uint8) []byte {
	return wire.Encode(nil, &wire.GameStart{Settings: wire.Settings{TicDup: 1, Skill: 2, LowResTurn: lowres, LoadGame: -1, NumPlayers: 2}}, true, seq)
}

// turnData is GAMEDATA with one tic that turns by 0x1234 (0x1200 in a
// lowres game): decoded with the other encoding it reads another turn.
func turnData(dir wire.Direction, lowres bool) []byte {
	d := wire.TicDiff{Flags: wire.DiffTurn, Cmd: wire.TicCmd{AngleTurn: 0x1234}}
	if lowres {
		d.Cmd.AngleTurn = 0x1200
	}
	if dir == wire.ClientToServer {
		return wire.Encode(nil, &wire.ClientGameData{LowResTurn: lowres, Ack: 1, Start: 2, Tics: []wire.ClientTic{{Diff: d}}}, false, 0)
	}
	t := wire.ServerTic{InGame: 3}
	t.Cmds[0], t.Cmds[1] = d, d
	return wire.Encode(nil, &wire.ServerGameData{LowResTurn: lowres, Start: 2, Tics: []wire.ServerTic{t}}, false, 0)
}

// dgram is a UDP datagram between two ports of 127.0.0.1.
type dgram struct {
	from, to uint16
	payload  []byte
}

// pcapOf writes datagrams in Ethernet frames with pcapgo, one millisecond
// apart.
func pcapOf(t *testing.T, dgrams ...dgram) []byte {
	var b bytes.Buffer
	w := pcapgo.NewWriter(&b)
	err := w.WriteFileHeader(262144, layers.LinkTypeEthernet)
	require.NoError(t, err)
	for i, d := range dgrams {
		f := ethernet(udpFrame(d.payload, d.from, d.to))
		ci := gopacket.CaptureInfo{Timestamp: time.Unix(1700000000, int64(i)*1e6), CaptureLength: len(f), Length: len(f)}
		err := w.WritePacket(ci, f)
		require.NoError(t, err)
	}
	return b.Bytes()
}

// twoClients is a capture of clients A (port 40001, in a lowres game) and
// B (40002, whose GAMESTART from the server is not in it, but whose own
// "ready" GAMESTART asks for lowres).
func twoClients(t *testing.T) []byte {
	const a, b, srv = 40001, 40002, 2342
	c2s, s2c := wire.ClientToServer, wire.ServerToClient
	return pcapOf(t, []dgram{
		{b, srv, startPacket(true, 0)}, // 0: B is ready
		{srv, a, startPacket(true, 2)}, // 1: A's game starts, lowres
		{a, srv, turnData(c2s, true)},  // 2
		{b, srv, turnData(c2s, false)}, // 3
		{srv, a, turnData(s2c, true)},  // 4
		{srv, b, turnData(s2c, false)}, // 5
	}...)
}

// turnsOf returns each GAMEDATA's first turn (in the server's, player p's)
// and "@n" when GAMESTART n decided its turning.
func turnsOf(t *testing.T, recs []map[string]any, p string) string {
	var out []string
	for _, r := range recs {
		if r["type"] != "GAMEDATA" {
			continue
		}
		path := []any{"fields", "Tics", 0, "Diff", "AngleTurn"}
		if r["dir"] == "S>C" {
			path = []any{"fields", "Tics", 0, "Cmds", p, "AngleTurn"}
		}
		s := fmt.Sprint(num(t, get(t, r, path...)))
		if r["gamestart"] != nil {
			s += fmt.Sprintf("@%v", r["gamestart"])
		}
		out = append(out, s)
	}
	return strings.Join(out, " ")
}

func TestGameStartToOneClientDoesNotSwitchAnotherClientsFlow(t *testing.T) {
	recs, stderr, status := dumpRun(t, nil, nil, twoClients(t))
	require.Equal(t, 0, status, "status %d, stderr %q: %v", status, stderr, recs)
	require.Equal(t, 0, errorsIn(recs), "status %d, stderr %q: %v", status, stderr, recs)
	require.Contains(t, stderr, ": 2 packets on flows without a GAMESTART", "status %d, stderr %q: %v", status, stderr, recs)
	// A's packets, 2 and 4, are lowres by GAMESTART 1; B's are not, its own
	// GAMESTART notwithstanding.
	got := turnsOf(t, recs, "1")
	require.Equal(t, "4608@1 4660 4608@1 4660", got, "turns %s", got)
	for _, n := range []int{2, 3, 4, 5} {
		want := n%2 == 0
		require.Equal(t, want, get(t, recs[n], "fields", "LowResTurn"), "packet %d: %v", n, recs[n])
		require.Nil(t, recs[n]["trailing"], "packet %d: %v", n, recs[n])
	}
}

func TestLowresFlagOverridesWhatTheCaptureSays(t *testing.T) {
	data := twoClients(t)
	recs, _, _ := dumpRun(t, []string{"-lowres"}, nil, data)
	// B's two-byte turns read as one byte: its own with a trailing byte, and
	// in the server's, the rest of player 0's turn as player 1's flags.
	got := turnsOf(t, recs, "1")
	require.Equal(t, "4608 4608 4608 1024", got, "-lowres: turns %s: %v", got, recs[3])
	require.Equal(t, int64(1), num(t, recs[3]["trailing"]), "-lowres: turns %s: %v", got, recs[3])
	// A's one-byte turns do not decode as two bytes.
	recs, stderr, status := dumpRun(t, []string{"-lowres=false"}, nil, data)
	require.Equal(t, 1, status, "-lowres=false: status %d: %v", status, recs)
	require.NotNil(t, recs[2]["error"], "-lowres=false: status %d: %v", status, recs)
	require.Nil(t, recs[2]["gamestart"], "-lowres=false: status %d: %v", status, recs)
	require.Equal(t, int64(0x1234), num(t, get(t, recs[3], "fields", "Tics", 0, "Diff", "AngleTurn")), "-lowres=false: status %d: %v", status, recs)
	// The vector file holds the GAMESTART of only one of its two clients:
	// -lowres decodes the other's too.
	vs := loadVectors(t)["vectors-run4-lowres.txt"]
	pcap := pcapFile{link: 1}.build(framesOf(vs, ethernet)...)
	recs, stderr, status = dumpRun(t, []string{"-lowres"}, nil, pcap)
	require.Equal(t, 0, status, "status %d, %d objects, stderr %q", status, len(recs), stderr)
	require.Equal(t, "", stderr, "status %d, %d objects, stderr %q", status, len(recs), stderr)
	require.Equal(t, len(vs), len(recs), "status %d, %d objects, stderr %q", status, len(recs), stderr)
	got = turnsOf(t, recs, "0")
	require.Equal(t, "512 512 -1280 -1280 4608 4608", got, "turns %s", got)
	// Without it, that client's packets decode with two-byte turning, wrongly
	// but without an error, and the command says so.
	recs, stderr, status = dumpRun(t, nil, nil, pcap)
	for _, r := range recs {
		if r["type"] == "GAMEDATA" {
			require.Equal(t, (r["dir"] == "C>S"), (r["gamestart"] != nil), "%v", r)
		}
	}
	require.Equal(t, 0, status, "without the other client's GAMESTART: status %d, stderr %q", status, stderr)
	require.Contains(t, stderr, ": 3 packets on flows without a GAMESTART were decoded with two-byte turning", "without the other client's GAMESTART: status %d, stderr %q", status, stderr)
}

func TestHexInputLearnsLowresFromAGameStartForTheRestOfTheStream(t *testing.T) {
	sgd := hex.EncodeToString(turnData(wire.ServerToClient, true))
	in := strings.Join([]string{
		"S> " + sgd, // before any GAMESTART: two-byte turning
		"C> " + hex.EncodeToString(startPacket(true, 0)), // a client's: not the game's
		"S> " + sgd, //
		"HEX " + hex.EncodeToString(startPacket(true, 1)), // unknown direction: taken
		"S> " + sgd,
		"HEX " + hex.EncodeToString(startPacket(false, 2)),
		"S> " + hex.EncodeToString(turnData(wire.ServerToClient, false)),
	}, "\n")
	recs, _, _ := dumpRun(t, nil, []byte(in))
	require.Equal(t, 7, len(recs), "%v", recs)
	require.NotNil(t, recs[0]["error"], "%v", recs)
	require.NotNil(t, recs[2]["error"], "%v", recs)
	require.Equal(t, int64(3), num(t, recs[4]["gamestart"]), "%v", recs)
	require.Equal(t, int64(0x1200), num(t, get(t, recs[4], "fields", "Tics", 0, "Cmds", "1", "AngleTurn")), "%v", recs)
	require.Equal(t, int64(5), num(t, recs[6]["gamestart"]), "%v", recs)
	require.Equal(t, int64(0x1234), num(t, get(t, recs[6], "fields", "Tics", 0, "Cmds", "1", "AngleTurn")), "%v", recs)
	// Each input starts over.
	var out, errOut bytes.Buffer
	dir := t.TempDir()
	first, second := filepath.Join(dir, "1"), filepath.Join(dir, "2")
	os.WriteFile(first, []byte("HEX "+hex.EncodeToString(startPacket(true, 1))), 0o600)
	os.WriteFile(second, []byte("S> "+sgd), 0o600)
	status := run([]string{first, second}, nil, &out, &errOut)
	require.Equal(t, 1, status, "status %d: %s", status, out.String())
	require.Contains(t, out.String(), `"error"`, "status %d: %s", status, out.String())
}

// hexLine is a line of hex input: the direction's prefix ("C>", "S>" or
// "HEX") and m encoded.
func hexLine(prefix string, m wire.Message, reliable bool) string {
	return prefix + " " + hex.EncodeToString(wire.Encode(nil, m, reliable, 0))
}

// extMode is the server's ModeNotice of a game under the extension, with
// opaque input of inputSize bytes (0: Doom's ticcmd).
func extMode(inputSize uint8) *wire.ModeNotice {
	return &wire.ModeNotice{Extended: true, Setup: wire.GameSetup{Input: wire.InputLayout{Size: inputSize}, TicRate: 35}}
}

// extGameData is a client's GAMEDATA under the extension: no latency, and
// a report of two checksums from tic report on.
func extGameData(report uint32) *wire.ClientGameData {
	return &wire.ClientGameData{Ext: true, Ack: 1, Start: 2, Tics: []wire.ClientTic{
		{Diff: wire.TicDiff{Flags: wire.DiffForward, Cmd: wire.TicCmd{ForwardMove: 5}}}, {}},
		Report: wire.ChecksumReport{Start: report, Sums: []uint16{0xabcd, 2}}}
}

// ticSet is a tic set of one tic, player 0's, from tic start on.
func ticSet(start uint32) *wire.TicSet {
	return &wire.TicSet{Start: start, Tics: []wire.SetTic{{ServerTic: wire.ServerTic{InGame: 1}}}}
}

func TestHexInputFollowsTheExtensionFromTheServersModeNotice(t *testing.T) {
	gd := hexLine("C>", extGameData(100), false)
	recs, _, status := dumpRun(t, nil, []byte(hexLine("S>", extMode(0), true)+"\n"+gd))
	require.Equal(t, 0, status, "status %d: %v", status, recs)
	require.Equal(t, 2, len(recs), "status %d: %v", status, recs)
	require.Equal(t, "TICNET", recs[0]["type"], "status %d: %v", status, recs)
	require.Equal(t, true, get(t, recs[0], "fields", "Extended"), "status %d: %v", status, recs)
	r := recs[1]
	require.Equal(t, true, get(t, r, "fields", "Ext"), "GAMEDATA: %v", r)
	require.Nil(t, r["trailing"], "GAMEDATA: %v", r)
	require.Equal(t, int64(1), num(t, get(t, r, "fields", "Ack")), "GAMEDATA: %v", r)
	require.Equal(t, int64(5), num(t, get(t, r, "fields", "Tics", 0, "Diff", "ForwardMove")), "GAMEDATA: %v", r)
	require.Equal(t, int64(0), num(t, get(t, r, "fields", "Tics", 1, "Diff", "Flags")), "GAMEDATA: %v", r)
	require.Equal(t, 2, len(get(t, r, "fields", "Tics").([]any)), "GAMEDATA: %v", r)
	require.Equal(t, int64(100), num(t, get(t, r, "fields", "Report", "Start")), "GAMEDATA: %v", r)
	require.Equal(t, "[43981 2]", fmt.Sprint(get(t, r, "fields", "Report", "Sums")), "GAMEDATA: %v", r)
	// Without the ModeNotice it reads in the reference's layout: wrongly,
	// taking the first tic's diff for latency and leaving 3 bytes over.
	recs, _, _ = dumpRun(t, nil, []byte(gd))
	require.Equal(t, false, get(t, recs[0], "fields", "Ext"), "without a ModeNotice: %v", recs[0])
	require.Equal(t, int64(3), num(t, recs[0]["trailing"]), "without a ModeNotice: %v", recs[0])
	// A ModeNotice that is not extended, or comes from a client, sets up
	// nothing: the reference's layout again.
	for _, mode := range []string{hexLine("S>", &wire.ModeNotice{Setup: wire.GameSetup{TicRate: 35}}, true), hexLine("C>", extMode(0), true)} {
		recs, _, _ = dumpRun(t, nil, []byte(mode+"\n"+gd))
		require.Equal(t, false, get(t, recs[1], "fields", "Ext"), "after %s: %v", mode, recs[1])
		require.Equal(t, int64(3), num(t, recs[1]["trailing"]), "after %s: %v", mode, recs[1])
	}
	// Opaque input is as many bytes as the ModeNotice's layout says.
	op := &wire.ClientGameData{Ext: true, InputSize: 3, Tics: []wire.ClientTic{{Diff: wire.TicDiff{Input: 0b101, Cmd: wire.TicCmd{Input: [wire.MaxInputBytes]byte{7, 0, 9}}}}}}
	recs, _, status = dumpRun(t, nil, []byte(hexLine("HEX", extMode(3), true)+"\n"+hexLine("C>", op, false)))
	require.Equal(t, 0, status, "status %d: %v", status, recs)
	require.Equal(t, int64(3), num(t, get(t, recs[1], "fields", "InputSize")), "status %d: %v", status, recs)
	require.Equal(t, "map[0:7 2:9]", fmt.Sprint(get(t, recs[1], "fields", "Tics", 0, "Diff", "Input")), "status %d: %v", status, recs)
}

func TestTicSetStartsAndReportsExpandNearTheLastTicTheFlowShowed(t *testing.T) {
	in := strings.Join([]string{
		hexLine("S>", extMode(0), true),
		hexLine("S>", ticSet(30000), false),
		hexLine("S>", ticSet(60000), false), // 30 000 tics on: still near
		hexLine("S>", ticSet(70000), false),
		hexLine("C>", extGameData(69990), false),
		hexLine("S>", ticSet(69995), false), // a resent set, behind the report
		"S> " + hex.EncodeToString(startPacket(false, 1)),
		hexLine("S>", ticSet(5), false), // a new game starts at 0
		hexLine("S>", ticSet(70000), false),
	}, "\n")
	recs, _, status := dumpRun(t, nil, []byte(in))
	require.Equal(t, 0, status, "status %d: %v", status, recs)
	require.Equal(t, 9, len(recs), "status %d: %v", status, recs)
	var starts []string
	for _, r := range recs {
		switch {
		case r["type"] == "GAMEDATA":
			starts = append(starts, fmt.Sprintf("report %v", get(t, r, "fields", "Report", "Start")))
		case r["type"] == "TICNET" && r["fields"].(map[string]any)["Start"] != nil:
			starts = append(starts, fmt.Sprint(get(t, r, "fields", "Start")))
		}
	}
	// 70 000 alone, with nothing near it before, is 70 000 - 65 536.
	got := strings.Join(starts, " ")
	require.Equal(t, "30000 60000 70000 report 69990 69995 5 4464", got, "starts %s", got)
	require.Equal(t, int64(60000), num(t, get(t, recs[3], "fields", "Near")), "near %v, %v", recs[3]["fields"], recs[4]["fields"])
	require.Equal(t, int64(70000), num(t, get(t, recs[4], "fields", "Near")), "near %v, %v", recs[3]["fields"], recs[4]["fields"])
}

func TestALateJoinersJoinStartSetsUpTurningTheExtensionAndTheTic(t *testing.T) {
	set := ticSet(100003)
	set.LowResTurn = true
	set.Tics[0].Cmds[0] = wire.TicDiff{Flags: wire.DiffTurn, Cmd: wire.TicCmd{AngleTurn: 0x1200}}
	in := strings.Join([]string{
		hexLine("S>", &wire.JoinStart{Start: 100000, Settings: wire.Settings{LowResTurn: true, NumPlayers: 2, TicDup: 1, LoadGame: -1},
			Setup: wire.GameSetup{TicRate: 35}}, true),
		hexLine("S>", set, false),
		hexLine("C>", extGameData(99999), false),
	}, "\n")
	recs, _, status := dumpRun(t, nil, []byte(in))
	require.Equal(t, 0, status, "status %d: %v", status, recs)
	require.Equal(t, 3, len(recs), "status %d: %v", status, recs)
	require.Equal(t, int64(0), num(t, recs[1]["gamestart"]), "tic set: %v", recs[1])
	require.Equal(t, int64(100003), num(t, get(t, recs[1], "fields", "Start")), "tic set: %v", recs[1])
	require.Equal(t, int64(0x1200), num(t, get(t, recs[1], "fields", "Tics", 0, "Cmds", "0", "AngleTurn")), "tic set: %v", recs[1])
	require.Equal(t, int64(0), num(t, recs[2]["gamestart"]), "GAMEDATA: %v", recs[2])
	require.Equal(t, true, get(t, recs[2], "fields", "Ext"), "GAMEDATA: %v", recs[2])
	require.Equal(t, int64(99999), num(t, get(t, recs[2], "fields", "Report", "Start")), "GAMEDATA: %v", recs[2])
}

func TestPcapByteOrdersTimestampsAndLinkTypesDecodeTheSame(t *testing.T) {
	vs := loadVectors(t)["vectors-run1-handshake-gamedata.txt"]
	base, _, status := dumpRun(t, nil, nil, pcapFile{link: 1}.build(framesOf(vs, ethernet)...))
	require.Equal(t, 0, status, status)
	vlan := func(ip []byte) []byte {
		e := ethernet(ip)
		return append(append(bytes.Clone(e[:12]), 0x81, 0x00, 0x00, 0x05), e[12:]...)
	}
	null := func(ip []byte) []byte { return append([]byte{2, 0, 0, 0}, ip...) }
	nullBE := func(ip []byte) []byte { return append([]byte{0, 0, 0, 2}, ip...) }
	raw := func(ip []byte) []byte { return ip }
	sll := func(ip []byte) []byte {
		h := make([]byte, 16)
		binary.BigEndian.PutUint16(h[14:], 0x0800)
		return append(h, ip...)
	}
	sll2 := func(ip []byte) []byte {
		h := make([]byte, 20)
		binary.BigEndian.PutUint16(h, 0x0800)
		return append(h, ip...)
	}
	for _, tc := range []struct {
		name string
		file pcapFile
		wrap func([]byte) []byte
	}{
		{"big-endian", pcapFile{order: binary.BigEndian, link: 1}, ethernet},
		{"nanoseconds", pcapFile{nano: true, link: 1}, ethernet},
		{"big-endian nanoseconds", pcapFile{order: binary.BigEndian, nano: true, link: 1}, ethernet},
		{"VLAN-tagged Ethernet", pcapFile{link: 1}, vlan},
		{"Ethernet with an FCS note in the link type", pcapFile{link: 1 | 1<<28}, ethernet},
		{"loopback", pcapFile{link: 0}, null},
		{"loopback, big-endian host", pcapFile{order: binary.BigEndian, link: 0}, nullBE},
		{"raw IP", pcapFile{link: 101}, raw},
		{"raw IPv4", pcapFile{link: 228}, raw},
		{"Linux cooked", pcapFile{link: 113}, sll},
		{"Linux cooked v2", pcapFile{link: 276}, sll2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			recs, stderr, status := dumpRun(t, nil, nil, tc.file.build(framesOf(vs, tc.wrap)...))
			require.Equal(t, 0, status, "status %d, %d objects, stderr %q", status, len(recs), stderr)
			require.Equal(t, "", stderr, "status %d, %d objects, stderr %q", status, len(recs), stderr)
			require.Equal(t, len(base), len(recs), "status %d, %d objects, stderr %q", status, len(recs), stderr)
			for i := range recs {
				a, _ := json.Marshal(recs[i]["fields"])
				b, _ := json.Marshal(base[i]["fields"])
				require.Equal(t, string(b), string(a), "packet %d: fields differ", i)
				require.Equal(t, base[i]["dir"], recs[i]["dir"], "packet %d: dir differs", i)
				require.Equal(t, base[i]["src"], recs[i]["src"], "packet %d: src differs", i)
				tm := string(recs[i]["time"].(json.Number))
				digits := 6
				if tc.file.nano {
					digits = 9
				}
				want := fmt.Sprintf("%d.%0*d", 1700000000+i, digits, 1000*i+7)
				require.Equal(t, want, tm, "time")
			}
		})
	}
}

// inNanoseconds writes a decoded record's time with 9 decimals, as a
// pcapng file written by pcapgo holds it, and drops its number.
func inNanoseconds(t *testing.T, r map[string]any) string {
	c := maps.Clone(r)
	delete(c, "n")
	if tm, ok := r["time"].(json.Number); ok {
		sec, frac, _ := strings.Cut(string(tm), ".")
		c["time"] = sec + "." + frac + strings.Repeat("0", 9-len(frac))
	}
	b, err := json.Marshal(c)
	require.NoError(t, err)
	return string(b)
}

func TestPcapngOfEveryCaptureDecodesAsThePcapDoes(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.pcap")
	require.GreaterOrEqual(t, len(files), 3, "captures: %v", files)
	var pcaps [][]byte
	var want []string
	for _, name := range files {
		data, err := os.ReadFile(name)
		require.NoError(t, err)
		pcaps = append(pcaps, data)
		before := len(want)
		base, _, status := dumpRun(t, nil, nil, data)
		recs, stderr, ngStatus := dumpRun(t, nil, nil, pcapngOf(t, data))
		t.Logf("%s: %d packets, %d undecodable as pcap; %d packets, %d undecodable as pcapng", name, len(base), errorsIn(base), len(recs), errorsIn(recs))
		require.Equal(t, 0, status, "%s: status %d (pcap %d), %d objects for %d, stderr %q", name, ngStatus, status, len(recs), len(base), stderr)
		require.Equal(t, 0, ngStatus, "%s: status %d (pcap %d), %d objects for %d, stderr %q", name, ngStatus, status, len(recs), len(base), stderr)
		require.Equal(t, "", stderr, "%s: status %d (pcap %d), %d objects for %d, stderr %q", name, ngStatus, status, len(recs), len(base), stderr)
		require.Equal(t, len(base), len(recs), "%s: status %d (pcap %d), %d objects for %d, stderr %q", name, ngStatus, status, len(recs), len(base), stderr)
		require.Equal(t, 0, errorsIn(recs), "%s: status %d (pcap %d), %d objects for %d, stderr %q", name, ngStatus, status, len(recs), len(base), stderr)
		for i := range recs {
			a, b := inNanoseconds(t, recs[i]), inNanoseconds(t, base[i])
			require.Equal(t, b, a, "%s #%d:\n%s\n%s", name, i, a, b)
			require.True(t, regexp.MustCompile(`^\d{10}\.\d{9}$`).MatchString(string(recs[i]["time"].(json.Number))), "%s #%d: time %v", name, i, recs[i]["time"])
			if g, ok := base[i]["gamestart"]; ok { // numbered in the merged file
				base[i]["gamestart"] = num(t, g) + int64(before)
			}
			want = append(want, inNanoseconds(t, base[i]))
		}
	}
	// All of them in one file, an interface each, link types mixed. Each
	// capture is a game of its own, so that the lowres one's flow does not
	// meet the others'.
	recs, stderr, status := dumpRun(t, nil, nil, pcapngOf(t, pcaps...))
	require.Equal(t, 0, status, "mixed: status %d, %d objects for %d, stderr %q", status, len(recs), len(want), stderr)
	require.Contains(t, stderr, ": 2 packets on flows without a GAMESTART", "mixed: status %d, %d objects for %d, stderr %q", status, len(recs), len(want), stderr)
	require.Equal(t, len(want), len(recs), "mixed: status %d, %d objects for %d, stderr %q", status, len(recs), len(want), stderr)
	for i := range recs {
		got := inNanoseconds(t, recs[i])
		require.Equal(t, want[i], got, "mixed #%d:\n%s\n%s", i, got, want[i])
	}
}

func TestPcapRecordsThatAreNotIPv4UDPAreSkippedAndCounted(t *testing.T) {
	udp := udpFrame([]byte{0x00, 0x03}, 40000, 2342)
	arp := ethernet(udp)
	binary.BigEndian.PutUint16(arp[12:], 0x0806)
	ipv6 := ethernet(udp)
	binary.BigEndian.PutUint16(ipv6[12:], 0x86dd)
	tcp := bytes.Clone(udp)
	tcp[9] = 6
	frag := bytes.Clone(udp)
	frag[6] = 0x20 // more fragments
	short := []byte{1, 2, 3}
	data := pcapFile{link: 1}.build(arp, ethernet(udp), ipv6, ethernet(tcp), ethernet(frag), short, ethernet(udp))
	recs, stderr, status := dumpRun(t, nil, nil, data)
	require.Equal(t, 0, status, "status %d, %d objects, stderr %q", status, len(recs), stderr)
	require.Equal(t, 2, len(recs), "status %d, %d objects, stderr %q", status, len(recs), stderr)
	require.Contains(t, stderr, "skipped 5 pcap records", "status %d, %d objects, stderr %q", status, len(recs), stderr)
	require.Equal(t, "KEEPALIVE", recs[0]["type"], "%v", recs)
	require.Equal(t, "C>S", recs[0]["dir"], "%v", recs)
	require.Equal(t, int64(1), num(t, recs[1]["n"]), "%v", recs)
	// Other link types are skipped too.
	_, stderr, status = dumpRun(t, nil, nil, pcapFile{link: 105}.build(udp))
	require.Equal(t, 0, status, "status %d, stderr %q", status, stderr)
	require.Contains(t, stderr, "skipped 1", "status %d, stderr %q", status, stderr)
	// So is IPv6 as raw IP, even where its header reads as an IPv4 header
	// of UDP: 15 words long, not fragmented, protocol 17.
	v6 := make([]byte, 40+40)
	v6[0], v6[3], v6[9] = 0x6f, 80, 17
	copy(v6[60:], []byte{0x9c, 0x40, 0x09, 0x26, 0, 20})
	_, stderr, status = dumpRun(t, nil, nil, pcapFile{link: 101}.build(v6, udp))
	require.Equal(t, 0, status, "IPv6: status %d, stderr %q", status, stderr)
	require.Contains(t, stderr, "skipped 1", "IPv6: status %d, stderr %q", status, stderr)
}

func TestPcapDirectionFollowsThePortFlag(t *testing.T) {
	data := pcapFile{link: 101}.build(udpFrame([]byte{0x00, 0x03}, 5000, 6000), udpFrame([]byte{0x00, 0x03}, 6000, 5000), udpFrame([]byte{0x00, 0x03}, 1, 2))
	recs, _, _ := dumpRun(t, []string{"-port", "6000"}, nil, data)
	require.Equal(t, "C>S", recs[0]["dir"], "%v", recs)
	require.Equal(t, "S>C", recs[1]["dir"], "%v", recs)
	require.Equal(t, "?", recs[2]["dir"], "%v", recs)
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestHostilePcapLengthsAreRefusedAfterPrintingWhatCameBefore(t *testing.T) {
	frame := udpFrame([]byte{0x00, 0x03}, 40000, 2342)
	data := pcapFile{link: 101}.build(frame, frame)
	huge := bytes.Clone(data)
	binary.LittleEndian.PutUint32(huge[24+16+len(frame)+8:], 1<<30) // the second record claims a gigabyte
	recs, stderr, status := dumpRun(t, nil, nil, huge)
	require.Equal(t, 1, status, "status %d, %d objects, stderr %q", status, len(recs), stderr)
	require.Equal(t, 1, len(recs), "status %d, %d objects, stderr %q", status, len(recs), stderr)
	require.Contains(t, stderr, "pcap: record 2: capture length exceeds snap length: 1073741824 > 262144", "status %d, %d objects, stderr %q", status, len(recs), stderr)
	// Under a snap length that allows it, the gigabyte is not allocated
	// before the file runs out.
	binary.LittleEndian.PutUint32(huge[16:], 1<<31)
	binary.LittleEndian.PutUint32(huge[24+16+len(frame)+12:], 1<<30) // the original length too
	var err error
	n := allocated(func() { _, err = parseInput(huge, 2342) })
	require.LessOrEqual(t, n, uint64(1<<20), "%d bytes allocated: %v", n, err)
	require.Error(t, err, "%d bytes allocated: %v", n, err)
	require.Contains(t, err.Error(), "record 2: file cut short", "%d bytes allocated: %v", n, err)
	for _, cut := range []int{10, 24 + 5, len(data) - 1} {
		recs, stderr, status = dumpRun(t, nil, nil, data[:cut])
		require.Equal(t, 1, status, "cut at %d: status %d, %d objects, stderr %q", cut, status, len(recs), stderr)
		require.Contains(t, stderr, "pcap:", "cut at %d: status %d, %d objects, stderr %q", cut, status, len(recs), stderr)
		require.Contains(t, stderr, "cut short", "cut at %d: status %d, %d objects, stderr %q", cut, status, len(recs), stderr)
		require.Equal(t, cut/(len(data)-1), len(recs), "cut at %d: status %d, %d objects, stderr %q", cut, status, len(recs), stderr)
	}
}

// blocks returns the offsets of a pcapng file's blocks.
func blocks(ng []byte) []int {
	var offs []int
	for off := 0; off+8 <= len(ng); off += int(binary.LittleEndian.Uint32(ng[off+4:])) {
		offs = append(offs, off)
	}
	return offs
}

func TestHostilePcapngLengthsAreRefusedAfterPrintingWhatCameBefore(t *testing.T) {
	frame := udpFrame([]byte{0x00, 0x03}, 40000, 2342)
	ng := pcapngOf(t, pcapFile{link: 101}.build(frame, frame))
	offs := blocks(ng) // section, interface, two packets
	require.Equal(t, 4, len(offs), "blocks at %v", offs)
	huge := bytes.Clone(ng)
	binary.LittleEndian.PutUint32(huge[offs[3]+20:], 1<<30) // the second packet claims a gigabyte
	var in input
	var err error
	n := allocated(func() { in, err = parseInput(huge, 2342) })
	require.LessOrEqual(t, n, uint64(1<<20), "%d bytes allocated, %d packets: %v", n, len(in.packets), err)
	require.Equal(t, 1, len(in.packets), "%d bytes allocated, %d packets: %v", n, len(in.packets), err)
	require.Error(t, err, "%d bytes allocated, %d packets: %v", n, len(in.packets), err)
	require.Contains(t, err.Error(), "pcapng: record 2: file cut short", "%d bytes allocated, %d packets: %v", n, len(in.packets), err)
	for cut, want := range map[int]int{4: 0, offs[1] + 5: 0, offs[3] - 1: 0, len(ng) - 1: 1} {
		recs, stderr, status := dumpRun(t, nil, nil, ng[:cut])
		require.Equal(t, 1, status, "cut at %d: status %d, %d objects, stderr %q", cut, status, len(recs), stderr)
		require.Contains(t, stderr, "pcapng:", "cut at %d: status %d, %d objects, stderr %q", cut, status, len(recs), stderr)
		require.Equal(t, want, len(recs), "cut at %d: status %d, %d objects, stderr %q", cut, status, len(recs), stderr)
	}
}

func TestUDPLengthBeyondTheCaptureIsReportedAsAnError(t *testing.T) {
	frame := udpFrame([]byte{0x00, 0x06, 0xc3, 0x02}, 2342, 40000)
	binary.BigEndian.PutUint16(frame[24:], 200)
	recs, _, status := dumpRun(t, nil, nil, pcapFile{link: 101}.build(frame))
	require.Equal(t, 1, status, "status %d: %v", status, recs)
	require.Equal(t, 1, len(recs), "status %d: %v", status, recs)
	require.Contains(t, recs[0]["error"].(string), "captured", "status %d: %v", status, recs)
}

const (
	synHex = "000056abe18c43686f636f6c61746520446f6f6d20332e302e30000143484f434f4c4154455f444f4f4d5f30000201000004010f9caf3cac3392deea003d3159a14f6156bd7a46daaf56c1dcc08a2e7668814811b2cab0cc7d52c15b4772756d7079204d616e637562757300"
	sgdHex = "0006c3020002021012000402103a"
	cgdHex = "0006c4c302000410120004103a"
)

func TestHexLinesWithDirectionsCommentsAndABadPacketWithItsOffset(t *testing.T) {
	in := strings.Join([]string{
		"# a capture, by hand",
		"C> " + synHex,
		"",
		"S>" + sgdHex,
		"S> 00 06 c3 05 00", // 5 tics cannot fit in 1 byte
		"   # indented comment",
		"HEX 000a02",
		"C> zz",
		"C> 0003ff", // KEEPALIVE with a trailing byte
	}, "\n")
	recs, _, status := dumpRun(t, nil, []byte(in))
	require.Equal(t, 1, status, "status %d, %d objects: %v", status, len(recs), recs)
	require.Equal(t, 6, len(recs), "status %d, %d objects: %v", status, len(recs), recs)
	require.Equal(t, "SYN", recs[0]["type"], "SYN: %v", recs[0])
	require.Equal(t, "C>S", recs[0]["dir"], "SYN: %v", recs[0])
	require.Nil(t, recs[0]["time"], "SYN: %v", recs[0])
	require.Nil(t, recs[0]["src"], "SYN: %v", recs[0])
	require.Equal(t, int64(2), num(t, recs[0]["line"]), "SYN: %v", recs[0])
	require.Equal(t, "GAMEDATA", recs[1]["type"], "GAMEDATA: %v", recs[1])
	require.Equal(t, "S>C", recs[1]["dir"], "GAMEDATA: %v", recs[1])
	require.Nil(t, recs[1]["layout"], "GAMEDATA: %v", recs[1])
	bad := recs[2]
	require.NotNil(t, bad["error"], "bad packet: %v", bad)
	require.Equal(t, int64(3), num(t, bad["offset"]), "bad packet: %v", bad)
	require.Contains(t, bad["reason"].(string), "num_tics", "bad packet: %v", bad)
	require.Equal(t, "0006c30500", bad["hex"], "bad packet: %v", bad)
	require.Equal(t, "GAMEDATA", bad["type"], "bad packet: %v", bad)
	require.Nil(t, bad["fields"], "bad packet: %v", bad)
	require.Equal(t, "RELIABLE_ACK", recs[3]["type"], "vector-style line: %v", recs[3])
	require.Equal(t, "?", recs[3]["dir"], "vector-style line: %v", recs[3])
	require.Equal(t, int64(2), num(t, get(t, recs[3], "fields", "Ack")), "vector-style line: %v", recs[3])
	require.Contains(t, recs[4]["error"].(string), "line 8 is not hex", "non-hex line: %v", recs[4])
	require.Equal(t, "KEEPALIVE", recs[5]["type"], "trailing byte: %v", recs[5])
	require.Equal(t, int64(1), num(t, recs[5]["trailing"]), "trailing byte: %v", recs[5])
	// The same without the bad lines exits 0.
	good := strings.Join([]string{"C> " + synHex, "S> " + sgdHex, "HEX 000a02"}, "\n")
	_, _, status = dumpRun(t, nil, []byte(good))
	require.Equal(t, 0, status, "status %d", status)
}

func TestUnknownDirectionPicksTheLayoutThatFits(t *testing.T) {
	for _, tc := range []struct {
		hex, typ, layout, field string
		want                    int64
	}{
		{sgdHex, "GAMEDATA", "S>C", "Start", 0xc3},
		{cgdHex, "GAMEDATA", "C>S", "Ack", 0xc4},
		{"0006c4c302000100000100", "GAMEDATA", "C>S", "Start", 0xc3},
		{"800f0102", "LAUNCH", "S>C", "NumPlayers", 2},
		{"800f00", "LAUNCH", "C>S", "", 0},
	} {
		recs, _, status := dumpRun(t, nil, []byte("HEX "+tc.hex))
		r := recs[0]
		require.Equal(t, 0, status, "%s: status %d, %v", tc.hex, status, r)
		require.Equal(t, tc.typ, r["type"], "%s: status %d, %v", tc.hex, status, r)
		require.Equal(t, "?", r["dir"], "%s: status %d, %v", tc.hex, status, r)
		require.Equal(t, tc.layout, r["layout"], "%s: status %d, %v", tc.hex, status, r)
		if tc.field != "" {
			require.Equal(t, tc.want, num(t, get(t, r, "fields", tc.field)), "%s: %v", tc.hex, r["fields"])
		}
	}
	// A type with one layout names none.
	recs, _, _ := dumpRun(t, nil, []byte("HEX "+synHex))
	require.Nil(t, recs[0]["layout"], "%v", recs[0])
	require.Equal(t, "SYN", recs[0]["type"], "%v", recs[0])
}

func TestEveryVectorFileFedAsTextDecodesInTheRightLayout(t *testing.T) {
	for name, vs := range loadVectors(t) {
		data, err := os.ReadFile(filepath.Join(specvectors.Dir(t), name))
		require.NoError(t, err)
		// The lowres file's GAMESTART sets its turning.
		recs, _, status := dumpRun(t, nil, nil, data)
		require.Equal(t, 0, status, "%s: status %d, %d objects for %d packets", name, status, len(recs), len(vs))
		require.Equal(t, len(vs), len(recs), "%s: status %d, %d objects for %d packets", name, status, len(recs), len(vs))
		for i, r := range recs {
			require.Equal(t, vs[i].typ, r["type"], "%s #%d", name, i)
			if r["layout"] != nil {
				want := "S>C"
				if vs[i].toServer {
					want = "C>S"
				}
				require.Equal(t, want, r["layout"], "%s #%d (%s): layout", name, i, vs[i].typ)
			}
		}
	}
}

func TestUnreadableInputExitsWith1AfterTheOtherFiles(t *testing.T) {
	var out, errOut bytes.Buffer
	dir := t.TempDir()
	good := filepath.Join(dir, "good")
	err := os.WriteFile(good, []byte("C> 0003\n"), 0o600)
	require.NoError(t, err)
	status := run([]string{filepath.Join(dir, "missing"), good}, nil, &out, &errOut)
	require.Equal(t, 1, status, "status %d, out %q, stderr %q", status, out.String(), errOut.String())
	require.Contains(t, errOut.String(), "missing", "status %d, out %q, stderr %q", status, out.String(), errOut.String())
	require.Contains(t, out.String(), `"type":"KEEPALIVE"`, "status %d, out %q, stderr %q", status, out.String(), errOut.String())
	require.Contains(t, out.String(), `"file":"`+good+`"`, "status %d, out %q, stderr %q", status, out.String(), errOut.String())
	status = run([]string{"-port", "70000"}, nil, &out, &errOut)
	require.Equal(t, 2, status, "bad port: status %d", status)
	status = run([]string{"-nosuchflag"}, nil, &out, &errOut)
	require.Equal(t, 2, status, "bad flag: status %d", status)
}

func TestStandardInputIsReadWithoutFiles(t *testing.T) {
	data := pcapFile{link: 101}.build(udpFrame([]byte{0x00, 0x0d}, 40000, 2342))
	recs, _, status := dumpRun(t, nil, data)
	require.Equal(t, 0, status, "status %d: %v", status, recs)
	require.Equal(t, 1, len(recs), "status %d: %v", status, recs)
	require.Equal(t, "QUERY", recs[0]["type"], "status %d: %v", status, recs)
}

func FuzzParseInput(f *testing.F) {
	for _, vs := range loadVectors(f) {
		pcap := pcapFile{link: 1}.build(framesOf(vs, ethernet)...)
		f.Add(pcap)
		f.Add(pcapngOf(f, pcap))
		var text []string
		for _, v := range vs {
			text = append(text, "HEX "+hex.EncodeToString(v.pkt))
		}
		f.Add([]byte(strings.Join(text, "\n")))
	}
	captures, _ := filepath.Glob("testdata/*.pcap")
	for _, name := range captures {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
			f.Add(pcapngOf(f, data))
		}
	}
	raw := udpFrame([]byte{0x00, 0x03}, 1, 2342)
	f.Add(pcapFile{order: binary.BigEndian, nano: true, link: 101}.build(raw))
	f.Add(pcapFile{link: 0}.build(append([]byte{2, 0, 0, 0}, raw...)))
	f.Add(pcapFile{link: 113}.build(append(make([]byte, 14), append([]byte{8, 0}, raw...)...)))
	f.Add(pcapngOf(f, pcapFile{link: 101}.build(raw), pcapFile{link: 276}.build(append([]byte{8, 0}, append(make([]byte, 18), raw...)...))))
	f.Add([]byte("C> " + synHex + "\nS> 0006c30500\n# x\nzz\n"))
	f.Add([]byte{0xd4, 0xc3, 0xb2, 0xa1})
	f.Add([]byte{0xa1, 0xb2, 0xc3, 0xd4, 0, 2, 0, 4})
	f.Add([]byte{0x0a, 0x0d, 0x0d, 0x0a, 28, 0, 0, 0, 0x4d, 0x3c, 0x2b, 0x1a})
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := parseInput(data, 2342)
		total := 0
		for _, p := range in.packets {
			total += len(p.data)
		}
		// Bounded: nothing kept beyond what the input holds.
		require.LessOrEqual(t, total, len(data), "%d packets, %d payload bytes from %d input bytes", len(in.packets), total, len(data))
		require.LessOrEqual(t, len(in.packets), len(data), "%d packets, %d payload bytes from %d input bytes", len(in.packets), total, len(data))
		// A record takes 16 bytes at least in either format.
		if in.capture != "" && err == nil {
			require.LessOrEqual(t, len(in.packets)+in.skipped, len(data)/16, "%d records from %d bytes", len(in.packets)+in.skipped, len(data))
		}
		// Printing never panics either, forced to either turning or
		// following what the input sets up.
		no, yes := false, true
		for _, forced := range []*bool{&no, &yes, nil} {
			var out bytes.Buffer
			d := dumper{enc: json.NewEncoder(&out), sess: newSessions(forced)}
			for _, p := range in.packets {
				d.describe(p)
			}
			n := strings.Count(out.String(), "\n")
			require.Equal(t, len(in.packets), n, "%d lines for %d packets", n, len(in.packets))
		}
	})
}

func TestCapturesWrittenByTcpdumpDecode(t *testing.T) {
	// testdata: a SYN, a server GAMEDATA and a RELIABLE_ACK sent over
	// 127.0.0.1 and captured by tcpdump 4.99 on lo (Ethernet, microseconds)
	// and on any (Linux cooked v2, nanoseconds).
	for _, tc := range []struct{ file, time string }{
		{"testdata/tcpdump-lo.pcap", `^\d{10}\.\d{6}$`},
		{"testdata/tcpdump-any-nano.pcap", `^\d{10}\.\d{9}$`},
	} {
		data, err := os.ReadFile(tc.file)
		require.NoError(t, err)
		recs, stderr, status := dumpRun(t, nil, nil, data)
		require.Equal(t, 0, status, "%s: status %d, %d objects, stderr %q", tc.file, status, len(recs), stderr)
		require.Equal(t, "", stderr, "%s: status %d, %d objects, stderr %q", tc.file, status, len(recs), stderr)
		require.Equal(t, 3, len(recs), "%s: status %d, %d objects, stderr %q", tc.file, status, len(recs), stderr)
		for i, want := range []struct{ typ, dir string }{{"SYN", "C>S"}, {"GAMEDATA", "S>C"}, {"RELIABLE_ACK", "C>S"}} {
			r := recs[i]
			require.Equal(t, want.typ, r["type"], "%s #%d: %v", tc.file, i, r)
			require.Equal(t, want.dir, r["dir"], "%s #%d: %v", tc.file, i, r)
			require.True(t, regexp.MustCompile(tc.time).MatchString(string(r["time"].(json.Number))), "%s #%d: %v", tc.file, i, r)
		}
		require.Equal(t, "Grumpy Mancubus", get(t, recs[0], "fields", "PlayerName"), "%s: %v", tc.file, recs)
		require.Equal(t, int64(0x3a), num(t, get(t, recs[1], "fields", "Tics", 1, "Cmds", "1", "Consistency")), "%s: %v", tc.file, recs)
		require.Equal(t, "127.0.0.1:2342", recs[0]["dst"], "%s: %v", tc.file, recs)
		require.Equal(t, "127.0.0.1:2342", recs[1]["src"], "%s: %v", tc.file, recs)
	}
}
