package wire

import (
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
)

func randCmd(r *rand.Rand) TicCmd {
	c := TicCmd{
		ForwardMove: int8(r.IntN(256)), SideMove: int8(r.IntN(256)), AngleTurn: int16(r.IntN(65536)),
		Buttons: uint8(r.IntN(256)), Consistency: uint8(r.IntN(256)), Buttons2: uint8(r.IntN(256)),
		LookFly: uint8(r.IntN(256)),
	}
	// Hold fields steady or zero now and then, so that empty diffs occur.
	if r.IntN(3) == 0 {
		c.ChatChar = uint8(r.IntN(256))
	}
	if r.IntN(3) == 0 {
		c.Arti = uint8(r.IntN(256))
	}
	if r.IntN(3) == 0 {
		c.Inventory = uint16(r.IntN(65536))
	}
	return c
}

func TestPatchOfDiffGivesTheCommandBack(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		a, b := randCmd(r), randCmd(r)
		if r.IntN(4) == 0 {
			b = a // nothing changed: only the event-like fields may travel
			b.ChatChar, b.Arti, b.Inventory = 0, 0, 0
		}
		d := Diff(&a, &b)
		if got := Patch(&a, &d); got != b {
			t.Fatalf("patch(%+v, diff) = %+v, want %+v", a, got, b)
		}
		// Through the wire too.
		w := Writer{}
		appendDiff(&w, &d, false)
		var d2 TicDiff
		rd := NewReader(w.Buf, 0)
		readDiff(&rd, &d2, false)
		if rd.Err() != nil || rd.Remaining() != 0 || d2 != d {
			t.Fatalf("diff %+v came back %+v (%v)", d, d2, rd.Err())
		}
	}
}

func TestEventFieldsResetWhenAbsentAndSteadyFieldsKeep(t *testing.T) {
	prev := TicCmd{ForwardMove: 10, ChatChar: 'x', Arti: 3, Inventory: 7, Buttons: 1, LookFly: 2}
	got := Patch(&prev, &TicDiff{})
	want := TicCmd{ForwardMove: 10, Buttons: 1, LookFly: 2}
	if got != want {
		t.Fatalf("empty diff gave %+v, want %+v", got, want)
	}
	if d := Diff(&prev, &prev); d.Flags&DiffChatChar == 0 || d.Flags&DiffRaven == 0 || d.Flags&DiffStrife == 0 {
		t.Fatalf("a repeated event-like field was not sent again: flags %08b", d.Flags)
	}
}

func TestLowResTurningTruncatesTowardZero(t *testing.T) {
	for _, tc := range []struct {
		turn   int16
		wire   byte
		decode int16
	}{{-100, 0x00, 0}, {640, 0x02, 512}, {0x1234, 0x12, 4608}, {-1280, 0xfb, -1280}, {-300, 0xff, -256}} {
		w := Writer{}
		appendDiff(&w, &TicDiff{Flags: DiffTurn, Cmd: TicCmd{AngleTurn: tc.turn}}, true)
		if w.Buf[1] != tc.wire {
			t.Fatalf("turn %d went out as %#x, want %#x", tc.turn, w.Buf[1], tc.wire)
		}
		var d TicDiff
		r := NewReader(w.Buf, 0)
		readDiff(&r, &d, true)
		if d.Cmd.AngleTurn != tc.decode {
			t.Fatalf("turn %d came back %d, want %d", tc.turn, d.Cmd.AngleTurn, tc.decode)
		}
	}
}

func TestExpandTic(t *testing.T) {
	for _, tc := range []struct {
		rel  uint32
		b    uint8
		want uint32
	}{
		{0x100, 0x05, 0x105},
		{0x1c3, 0xc4, 0x1c4},
		{0x1f0, 0x10, 0x210}, // forward across a wrap of the low byte
		{0x210, 0xf0, 0x1f0}, // backward across it
		{0x130, 0x30, 0x130},
		{0x10, 0xc0, 0xffffffc0}, // R < 0x100 and b > 0xB0: unsigned wrap, as the reference
		{0, 0, 0},
	} {
		if got := ExpandTic(tc.rel, tc.b); got != tc.want {
			t.Fatalf("ExpandTic(%#x, %#x) = %#x, want %#x", tc.rel, tc.b, got, tc.want)
		}
	}
}

func TestChooseProtocolPrefersTheServersOrder(t *testing.T) {
	pref := []string{ProtocolTicnet, ProtocolChocolate}
	if p, ok := ChooseProtocol([]string{ProtocolChocolate, ProtocolTicnet}, pref); !ok || p != ProtocolTicnet {
		t.Fatalf("got %q", p)
	}
	if p, ok := ChooseProtocol([]string{ProtocolChocolate}, pref); !ok || p != ProtocolChocolate {
		t.Fatalf("got %q", p)
	}
	if _, ok := ChooseProtocol([]string{"X"}, pref); ok {
		t.Fatal("no common protocol, yet one was chosen")
	}
}

func TestGameVersionNumberings(t *testing.T) {
	for _, tc := range []struct {
		version string
		b       uint8
	}{{"Chocolate Doom 3.0.0", 4}, {"Chocolate Doom 3.1.0", 4}, {"Chocolate Doom 3.0.1", 4}, {"Chocolate Doom 3.1.1", 5}, {"Chocolate Doom 3.2.0", 5}} {
		n := NumberingFor(tc.version)
		if b, ok := n.Encode(Doom19); !ok || b != tc.b {
			t.Fatalf("%s: Doom 1.9 is %d, want %d", tc.version, b, tc.b)
		}
		if v, ok := n.Decode(tc.b); !ok || v != Doom19 {
			t.Fatalf("%s: %d is %v", tc.version, tc.b, v)
		}
	}
	if _, ok := Numbering310.Encode(Doom15); ok {
		t.Fatal("3.1.0 has no Doom 1.5")
	}
	if v, _ := Numbering310.Decode(12); v != Hexen11R2 {
		t.Fatalf("3.1.0's 12 is %v", v)
	}
	if v, _ := Numbering30.Decode(12); v != Strife12 {
		t.Fatalf("3.0.1's 12 is %v", v)
	}
	if _, ok := Numbering311.Decode(16); ok {
		t.Fatal("16 decoded")
	}
}

func TestValidGameModes(t *testing.T) {
	valid := map[[2]uint8]bool{{MissionDoom2, ModeCommercial}: true, {MissionDoom, ModeShareware}: true,
		{MissionPackChex, ModeRetail}: true, {MissionHeretic, ModeRegistered}: true}
	invalid := [][2]uint8{{MissionDoom2, ModeShareware}, {MissionPackChex, ModeCommercial}, {9, ModeCommercial}, {MissionDoom, ModeIndetermined}}
	for k := range valid {
		if !ValidGameMode(k[0], k[1]) {
			t.Fatalf("%v refused", k)
		}
	}
	for _, k := range invalid {
		if ValidGameMode(k[0], k[1]) {
			t.Fatalf("%v accepted", k)
		}
	}
}

func TestPrintableKeepsWhatTheReferenceShows(t *testing.T) {
	if got := Printable("ok\n\x1b[31mred\x00\xff"); got != "ok\n[31mred" {
		t.Fatalf("got %q", got)
	}
}

func TestWriterCutsStringsAtNUL(t *testing.T) {
	w := Writer{}
	w.String("ab\x00cd")
	if string(w.Buf) != "ab\x00" {
		t.Fatalf("% x", w.Buf)
	}
}

// randMessages returns one random message of every type, with what the
// format can represent.
func randMessages(r *rand.Rand) []Message {
	str := func(n int) string {
		b := make([]byte, r.IntN(n))
		for i := range b {
			b[i] = byte(1 + r.IntN(255))
		}
		return string(b)
	}
	lowres := r.IntN(2) == 0
	diff := func() TicDiff {
		a, b := randCmd(r), randCmd(r)
		d := Diff(&a, &b)
		if lowres {
			d.Cmd.AngleTurn = d.Cmd.AngleTurn / 256 * 256
		}
		return d
	}
	var sha [20]byte
	for i := range sha {
		sha[i] = byte(r.IntN(256))
	}
	syn := &SYN{Magic: r.Uint32(), Version: str(40), PlayerName: str(40),
		Connect: ConnectData{GameMode: uint8(r.IntN(256)), GameMission: uint8(r.IntN(256)), LowResTurn: r.IntN(2) == 0,
			Drone: r.IntN(2) == 0, MaxPlayers: uint8(r.IntN(256)), IsFreedoom: uint8(r.IntN(256)), WADSHA1: sha, PlayerClass: uint8(r.IntN(256))}}
	for range r.IntN(MaxProtocols + 1) {
		syn.Protocols = append(syn.Protocols, str(20))
	}
	wd := &WaitingData{NumPlayers: uint8(r.IntN(12)), NumDrones: uint8(r.IntN(256)), ReadyPlayers: uint8(r.IntN(256)),
		MaxPlayers: uint8(r.IntN(256)), IsController: r.IntN(2) == 0, ConsolePlayer: int8(r.IntN(256)), DEHSHA1: sha, IsFreedoom: 1}
	for range wd.listed() {
		wd.Players = append(wd.Players, WaitingPlayer{Name: str(MaxPlayerName - 1), Addr: str(MaxPlayerName - 1)})
	}
	gs := &GameStart{Settings: Settings{TicDup: uint8(r.IntN(256)), ExtraTics: uint8(r.IntN(256)), Skill: int8(r.IntN(256)),
		LowResTurn: r.IntN(2) == 0, NewSync: r.IntN(2) == 0, TimeLimit: r.Uint32(), LoadGame: int8(r.IntN(256)),
		Random: uint8(r.IntN(256)), NumPlayers: uint8(r.IntN(MaxPlayers + 1)), ConsolePlayer: int8(r.IntN(256))}}
	for i := range int(gs.Settings.NumPlayers) {
		gs.Settings.PlayerClasses[i] = uint8(r.IntN(256))
	}
	cgd := &ClientGameData{LowResTurn: lowres, Ack: uint8(r.IntN(256)), Start: uint8(r.IntN(256))}
	for range r.IntN(10) {
		cgd.Tics = append(cgd.Tics, ClientTic{Latency: int16(r.IntN(65536)), Diff: diff()})
	}
	serverTic := func() ServerTic {
		t := ServerTic{Latency: int16(r.IntN(65536)), InGame: uint8(r.IntN(256))}
		for p := range MaxPlayers {
			if t.Has(p) {
				t.Cmds[p] = diff()
			}
		}
		return t
	}
	sgd := &ServerGameData{LowResTurn: lowres, Start: uint8(r.IntN(256))}
	for range r.IntN(10) {
		sgd.Tics = append(sgd.Tics, serverTic())
	}
	set := &TicSet{LowResTurn: lowres, Start: r.Uint32()}
	for range r.IntN(10) {
		st := SetTic{ServerTic: serverTic()}
		st.Substituted = uint8(r.IntN(256)) & st.InGame
		set.Tics = append(set.Tics, st)
	}
	for p := range r.IntN(MaxPlayers + 1) {
		set.Timing = append(set.Timing, PlayerTiming{Player: uint8(p), MarginMS: int16(r.IntN(65536))})
	}
	sums := &ChecksumReport{Start: r.Uint32()}
	for range r.IntN(MaxChecksums + 1) {
		sums.Sums = append(sums.Sums, r.Uint32())
	}
	qr := &QueryResponse{Version: str(30), State: uint8(r.IntN(3)), NumPlayers: 3, MaxPlayers: 4, GameMode: 2,
		Description: str(30), HasProtocols: r.IntN(2) == 0}
	if qr.HasProtocols {
		for range r.IntN(4) {
			qr.Protocols = append(qr.Protocols, str(20))
		}
	}
	return []Message{syn, &SYNReply{Version: str(30), Protocol: str(30)}, &Rejected{Message: str(100)}, wd, gs, cgd, sgd,
		&GameDataAck{Ack: uint8(r.IntN(256))}, &GameDataResend{Start: r.Uint32(), Count: uint8(r.IntN(256))},
		&ReliableAck{Ack: uint8(r.IntN(256))}, &ConsoleMessage{Text: str(200)}, qr, &Launch{NumPlayers: uint8(r.IntN(256))},
		&Empty{Kind: TypeKeepalive}, &Empty{Kind: TypeDisconnect}, &Empty{Kind: TypeDisconnectAck}, &Empty{Kind: TypeQuery},
		&Empty{Kind: TypeNATHolePunch}, &Empty{Kind: TypeLaunch}, set, sums, &ModeNotice{Extended: r.IntN(2) == 0}}
}

// fresh returns an empty message of m's kind, with the same wire options.
func fresh(m Message) Message {
	n := reflect.New(reflect.TypeOf(m).Elem()).Interface().(Message)
	switch v := n.(type) {
	case *ClientGameData:
		v.LowResTurn = m.(*ClientGameData).LowResTurn
	case *ServerGameData:
		v.LowResTurn = m.(*ServerGameData).LowResTurn
	case *TicSet:
		v.LowResTurn = m.(*TicSet).LowResTurn
	case *Empty:
		v.Kind = m.(*Empty).Kind
	}
	return n
}

// normal makes empty slices nil, so that deep equality ignores the difference.
func normal(m Message) Message {
	v := reflect.ValueOf(m).Elem()
	for i := range v.NumField() {
		if f := v.Field(i); f.Kind() == reflect.Slice && f.Len() == 0 {
			f.Set(reflect.Zero(f.Type()))
		}
	}
	return m
}

func TestEveryMessageRoundTrips(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for range 3000 {
		for _, m := range randMessages(r) {
			reliable := r.IntN(2) == 0
			seq := uint8(r.IntN(256))
			pkt := Encode(nil, m, reliable, seq)
			got := fresh(m)
			h, err := Decode(pkt, got)
			if err != nil {
				t.Fatalf("%T: %v", m, err)
			}
			if h.Reliable != reliable || (reliable && h.Seq != seq) {
				t.Fatalf("%T: header %+v", m, h)
			}
			if !reflect.DeepEqual(normal(got), normal(m)) {
				t.Fatalf("%T:\n got %+v\nwant %+v", m, got, m)
			}
		}
	}
}

func TestTruncatedPacketsFailWithAnOffsetAndNeverPanic(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, m := range randMessages(r) {
		pkt := Encode(nil, m, false, 0)
		for n := 0; n < len(pkt); n++ {
			got := fresh(m)
			_, err := Decode(pkt[:n], got)
			if err == nil {
				if _, isEmpty := m.(*Empty); isEmpty && n >= 2 {
					continue
				}
				if q, ok := m.(*QueryResponse); ok && q.HasProtocols {
					continue // the protocol list is optional: a cut there is a valid shorter packet
				}
				if s, ok := m.(*TicSet); ok && n > 0 && len(s.Tics) == 0 && len(s.Timing) == 0 {
					continue
				}
				t.Fatalf("%T cut to %d of %d bytes decoded", m, n, len(pkt))
			}
			var de *DecodeError
			if !errors.As(err, &de) || de.Offset > n || !strings.Contains(err.Error(), "offset") {
				t.Fatalf("%T cut to %d: %v", m, n, err)
			}
		}
	}
}

func TestCountsAreCheckedAgainstTheLimits(t *testing.T) {
	for _, tc := range []struct {
		m   Message
		pkt []byte
	}{
		{&ClientGameData{}, append([]byte{0, 6, 0, 0, 129}, make([]byte, 1000)...)},
		{&ServerGameData{}, append([]byte{0, 6, 0, 200}, make([]byte, 1000)...)},
		{&ServerGameData{}, []byte{0, 6, 0, 5, 0, 0, 0}},
		{&SYN{}, append([]byte{0, 0, 0x56, 0xab, 0xe1, 0x8c, 'v', 0, 17}, make([]byte, 100)...)},
		{&GameStart{}, append([]byte{0x80, 5, 0, 1, 1, 0, 0, 0, 0, 1, 1, 2, 4, 0, 1, 0, 0, 0, 0, 0xff, 0, 9, 0}, make([]byte, 20)...)},
		{&ChecksumReport{}, append([]byte{0, 0x70, TicnetKindChecksum, 0, 0, 0, 0, 65}, make([]byte, 400)...)},
	} {
		_, err := Decode(tc.pkt, tc.m)
		var de *DecodeError
		if !errors.As(err, &de) || !strings.Contains(de.Reason, ">") && !strings.Contains(de.Reason, "cannot fit") {
			t.Fatalf("%T: %v", tc.m, err)
		}
	}
}
