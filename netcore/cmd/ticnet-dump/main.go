// Command ticnet-dump dissects Chocolate Doom 3.x network packets (and
// ticnet's extension of the protocol): it reads a capture and prints one
// JSON object per packet with every decoded field, to debug ticnet against
// real Chocolate Doom peers or to read a capture by hand.
//
// Usage:
//
//	go run ./netcore/cmd/ticnet-dump [-lowres[=false]] [-port 2342] [FILE...]
//
// With no FILE it reads standard input. The input is detected:
//
//   - a capture file, read with gopacket's pcapgo: classic pcap as
//     tcpdump -w writes it (either byte order, microsecond or nanosecond
//     timestamps), or pcapng as Wireshark and dumpcap write it (any
//     number of interfaces, link types mixed, each interface's timestamp
//     resolution). Link layers: Ethernet (VLAN-tagged too), raw IPv4,
//     Linux cooked (v1, and v2 as tcpdump -i any writes) and BSD loopback.
//     Only IPv4 UDP is decoded; other records are skipped and counted on
//     standard error. A packet sent to -port goes client to server, one
//     sent from it server to client.
//   - text: one packet of hex per line, optionally prefixed "C>" (client to
//     server) or "S>" (server to client). Blank lines and lines starting
//     with '#' are ignored. The vector files' "HEX ..." lines are accepted
//     too, so a file of shared/spec/vectors can be fed as it is.
//
// GAMEDATA and LAUNCH are laid out differently in each direction. When the
// direction is unknown, both layouts are tried and the one that decodes
// (and re-encodes to exactly the packet's bytes, if both decode) is used:
// the object then has "dir":"?" and "layout" names the layout chosen.
//
// Some packets decode by what their session set up before them, and
// ticnet-dump follows that as the peers do, per flow: the client and
// server addresses a packet travels between (hex input is one flow; each
// input file starts over). What a GAMESTART, ModeNotice or JoinStart sets
// up counts from the next packet on, and only when it comes from the
// server (or its direction is unknown):
//
//   - GAMEDATA and ticnet's tic set carry turning in one byte when the
//     game's GAMESTART had lowres_turn set, in two otherwise. A client's
//     own GAMESTART does not count, as the server decides. A packet whose
//     turning a GAMESTART decided has "gamestart":N, N being that
//     GAMESTART's "n"; fields.LowResTurn says which turning was used.
//     Flows without a GAMESTART are decoded with two-byte turning, which
//     may read a lowres packet without an error, so when another flow's
//     GAMESTART set lowres_turn standard error says how many such packets
//     there were. -lowres forces one-byte turning for every packet,
//     -lowres=false two-byte turning: for a capture that began after the
//     GAMESTART.
//   - ticnet's ModeNotice (reliable) says whether the game runs under the
//     extension, whose client GAMEDATA has no latency per tic and may end
//     with a checksum report, and the size of its opaque input, if any;
//     fields.Ext and fields.InputSize say what was used.
//   - The start of a tic set or of a report on GAMEDATA travels as its
//     low 16 bits, expanded near the last tic number the flow showed in
//     full (the start of a tic set or of a checksum report, a JoinStart's
//     or a Resume's; 0 from a GAMESTART on), whichever way it went;
//     fields.Near says near which tic.
//
// A late joiner's JoinStart (reliable) sets all of them at once, and
// counts as its GAMESTART for "gamestart".
//
// Each line of output looks like
//
//	{"n":3,"time":1700000000.000123,"src":"127.0.0.1:56096","dst":"127.0.0.1:2342","dir":"C>S",
//	 "len":13,"type":"GAMEDATA","reliable":false,"gamestart":1,"fields":{"LowResTurn":true,"Ack":196,"Start":195,"Tics":[...]}}
//
// (time, src and dst for capture input only, time with as many decimals
// as the file's timestamps have; seq only for a reliable packet; trailing
// counts bytes after the message that a reader ignores). A packet that
// does not decode is printed as
//
//	{"n":4,...,"error":"parse GAMEDATA: num_tics at offset 3: ...","offset":3,"reason":"num_tics: ..."}
//
// and the command exits with status 1 after printing everything. It also
// exits 1 when an input cannot be read to its end, and 2 on bad flags.
package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math/bits"
	"os"
	"reflect"
	"strconv"

	"github.com/ticnet/ticnet/netcore/wire"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// run is the whole command; it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("ticnet-dump", flag.ContinueOnError)
	fs.SetOutput(stderr)
	lowres := fs.Bool("lowres", false, "decode GAMEDATA turning as one byte whatever a GAMESTART says (-lowres=false: as two bytes)")
	port := fs.Uint("port", 2342, "the server's UDP `port`, for the direction of captured packets")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: ticnet-dump [-lowres[=false]] [-port 2342] [FILE...]\n\n"+
			"Dissects Chocolate Doom packets from pcap or pcapng files, or hex lines (stdin without FILE), as JSON lines.\n"+
			"Each flow is decoded as its GAMESTART (lowres_turn, unless -lowres is given), ModeNotice and tic numbers set up.")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *port > 65535 {
		fmt.Fprintf(stderr, "ticnet-dump: -port %d is not a UDP port\n", *port)
		return 2
	}
	var forced *bool
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "lowres" {
			forced = lowres
		}
	})
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	d := dumper{enc: json.NewEncoder(out), sess: newSessions(forced)}
	d.enc.SetEscapeHTML(false)

	files := fs.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	status := 0
	for _, name := range files {
		var data []byte
		var err error
		if name == "-" {
			data, err = io.ReadAll(stdin)
		} else {
			data, err = os.ReadFile(name)
		}
		if err != nil {
			fmt.Fprintf(stderr, "ticnet-dump: %v\n", err)
			status = 1
			continue
		}
		if len(files) > 1 {
			d.file = name
		}
		d.sess.forget() // each input is a capture of its own
		in, err := parseInput(data, uint16(*port))
		for _, p := range in.packets {
			if !d.describe(p) {
				status = 1
			}
		}
		if w := d.sess.warning(); w != "" {
			fmt.Fprintf(stderr, "ticnet-dump: %s: %s\n", name, w)
		}
		if in.skipped > 0 {
			fmt.Fprintf(stderr, "ticnet-dump: %s: skipped %d %s records that are not IPv4 UDP (or are fragments)\n", name, in.skipped, in.capture)
		}
		if err != nil {
			fmt.Fprintf(stderr, "ticnet-dump: %s: %v\n", name, err)
			status = 1
		}
	}
	if err := out.Flush(); err != nil {
		fmt.Fprintf(stderr, "ticnet-dump: %v\n", err)
		return 1
	}
	return status
}

// dumper prints packets as JSON lines, numbering them across inputs.
type dumper struct {
	enc  *json.Encoder
	sess *sessions
	file string
	n    int
}

// record is one packet's JSON object.
type record struct {
	N         int         `json:"n"`
	File      string      `json:"file,omitempty"`
	Line      int         `json:"line,omitempty"`
	Time      json.Number `json:"time,omitempty"`
	Src       string      `json:"src,omitempty"`
	Dst       string      `json:"dst,omitempty"`
	Dir       string      `json:"dir"`
	Layout    string      `json:"layout,omitempty"`
	Len       int         `json:"len"`
	Type      string      `json:"type,omitempty"`
	Reliable  *bool       `json:"reliable,omitempty"`
	Seq       *uint8      `json:"seq,omitempty"`
	GameStart *int        `json:"gamestart,omitempty"`
	Fields    any         `json:"fields,omitempty"`
	Trailing  int         `json:"trailing,omitempty"`
	Error     string      `json:"error,omitempty"`
	Offset    *int        `json:"offset,omitempty"`
	Reason    string      `json:"reason,omitempty"`
	Hex       string      `json:"hex,omitempty"`
}

// describe prints one packet and reports whether it decoded.
func (d *dumper) describe(p packet) bool {
	r := record{N: d.n, File: d.file, Line: p.line, Time: json.Number(p.time), Src: p.src, Dst: p.dst,
		Dir: "?", Len: len(p.data)}
	d.n++
	if p.dirKnown {
		r.Dir = p.dir.String()
	}
	if p.err != nil {
		r.Error = p.err.Error()
		d.enc.Encode(r)
		return false
	}
	if len(p.data) >= 2 {
		r.Type = wire.Type((uint16(p.data[0])<<8 | uint16(p.data[1])) &^ wire.ReliableFlag).String()
	}
	if h, _, err := wire.ParseHeader(p.data); err == nil {
		r.Reliable = &h.Reliable
		if h.Reliable {
			r.Seq = &h.Seq
		}
	}
	ctx, turnedBy := d.sess.context(p)
	a := decode(p, ctx)
	if turnedBy >= 0 && turnMatters(a.m) {
		r.GameStart = &turnedBy
	}
	if a.err != nil {
		r.Error = a.err.Error()
		r.Hex = hex.EncodeToString(p.data)
		var de *wire.DecodeError
		if errors.As(a.err, &de) {
			r.Offset, r.Reason = &de.Offset, de.Field+": "+de.Reason
		}
		d.enc.Encode(r)
		return false
	}
	d.sess.decoded(p, a.h, a.m, r.N, turnedBy)
	if !p.dirKnown && a.layoutMatters {
		r.Layout = a.dir.String()
	}
	r.Fields = toJSON(reflect.ValueOf(a.m))
	r.Trailing = a.trailing
	d.enc.Encode(r)
	return true
}

// attempt is one way of decoding a packet.
type attempt struct {
	dir           wire.Direction
	h             wire.Header
	m             wire.Message
	err           error
	exact         bool // re-encoding gives exactly the packet
	trailing      int  // bytes after the message, which readers ignore
	layoutMatters bool // the other direction has another layout
}

func try(data []byte, dir wire.Direction, ctx wire.Context) attempt {
	a := attempt{dir: dir}
	a.h, a.m, a.err = wire.DecodePacketIn(data, dir, ctx)
	if a.err == nil {
		again := wire.Encode(nil, a.m, a.h.Reliable, a.h.Seq)
		a.exact = bytes.Equal(again, data)
		if bytes.HasPrefix(data, again) {
			a.trailing = len(data) - len(again)
		}
	}
	a.layoutMatters = a.h.Type == wire.TypeGameData || a.h.Type == wire.TypeLaunch
	return a
}

// decode decodes a packet in its direction, or, when that is unknown, in
// the layout that fits best: one that re-encodes exactly, else one that
// decodes (server to client first), else the error that got furthest.
func decode(p packet, ctx wire.Context) attempt {
	if p.dirKnown {
		return try(p.data, p.dir, ctx)
	}
	s := try(p.data, wire.ServerToClient, ctx)
	if !s.layoutMatters {
		return s
	}
	c := try(p.data, wire.ClientToServer, ctx)
	switch {
	case s.exact:
		return s
	case c.exact:
		return c
	case s.err == nil:
		return s
	case c.err == nil:
		return c
	}
	var se, ce *wire.DecodeError
	if errors.As(c.err, &ce) && errors.As(s.err, &se) && ce.Offset > se.Offset {
		return c
	}
	return s
}

// kv and object make a JSON object that keeps its keys in order: a
// message's fields in wire order.
type kv struct {
	k string
	v any
}

type object []kv

func (o object) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, f := range o {
		if i > 0 {
			b = append(b, ',')
		}
		k, err := json.Marshal(f.k)
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(f.v)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

var (
	ticDiffType   = reflect.TypeFor[wire.TicDiff]()
	serverTicType = reflect.TypeFor[wire.ServerTic]()
)

// toJSON turns a decoded message into values encoding/json prints well:
// structs as ordered objects, 20-byte hashes as hex, a ticcmd diff as the
// fields it carries, a full ticcmd as the commands of the players in it.
func toJSON(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return toJSON(v.Elem())
	case reflect.Struct:
		switch v.Type() {
		case ticDiffType:
			return diffJSON(v.Interface().(wire.TicDiff))
		case serverTicType:
			t := v.Interface().(wire.ServerTic)
			cmds := object{}
			for p := range wire.MaxPlayers {
				if t.Has(p) {
					cmds = append(cmds, kv{strconv.Itoa(p), diffJSON(t.Cmds[p])})
				}
			}
			return object{{"Latency", t.Latency}, {"InGame", t.InGame}, {"Cmds", cmds}}
		}
		o := object{}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			switch {
			case !f.IsExported():
			case f.Anonymous:
				if inner, ok := toJSON(v.Field(i)).(object); ok {
					o = append(o, inner...)
				}
			case v.Type() == reflect.TypeFor[wire.Empty]():
				// The kind is the packet type, printed already.
			default:
				o = append(o, kv{f.Name, toJSON(v.Field(i))})
			}
		}
		return o
	case reflect.Array, reflect.Slice:
		if v.Kind() == reflect.Array && v.Type().Elem().Kind() == reflect.Uint8 && v.Len() == 20 {
			b := make([]byte, 20)
			reflect.Copy(reflect.ValueOf(b), v)
			return hex.EncodeToString(b)
		}
		l := make([]any, v.Len())
		for i := range l {
			l[i] = toJSON(v.Index(i))
		}
		return l
	case reflect.Bool:
		return v.Bool()
	case reflect.String:
		return v.String()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int()
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return v.Uint()
	}
	return fmt.Sprint(v.Interface())
}

// diffJSON prints a ticcmd diff: its flags and the fields they name, and
// the bytes of opaque input it carries, by index.
func diffJSON(d wire.TicDiff) object {
	o := object{{"Flags", d.Flags}}
	c, f := d.Cmd, d.Flags
	add := func(flag uint8, name string, v any) {
		if f&flag != 0 {
			o = append(o, kv{name, v})
		}
	}
	add(wire.DiffForward, "ForwardMove", c.ForwardMove)
	add(wire.DiffSide, "SideMove", c.SideMove)
	add(wire.DiffTurn, "AngleTurn", c.AngleTurn)
	add(wire.DiffButtons, "Buttons", c.Buttons)
	add(wire.DiffConsistency, "Consistency", c.Consistency)
	add(wire.DiffChatChar, "ChatChar", c.ChatChar)
	add(wire.DiffRaven, "LookFly", c.LookFly)
	add(wire.DiffRaven, "Arti", c.Arti)
	add(wire.DiffStrife, "Buttons2", c.Buttons2)
	add(wire.DiffStrife, "Inventory", c.Inventory)
	if d.Input != 0 {
		in := object{}
		for m := d.Input; m != 0; m &= m - 1 {
			i := bits.TrailingZeros64(m)
			in = append(in, kv{strconv.Itoa(i), c.Input[i]})
		}
		o = append(o, kv{"Input", in})
	}
	return o
}
