// Command ticnet-dump dissects Chocolate Doom 3.x packets (and ticnet's
// extension): it reads a pcap file, as tcpdump writes it, or lines of hex,
// and prints one JSON object per packet with every decoded field.
//
//	go run ./netcore/cmd/ticnet-dump [-port 2342] [-lowres] [FILE...]
//
// With no FILE it reads standard input. A hex line may start with "C>"
// (client to server) or "S>" (server to client): GAMEDATA and LAUNCH have a
// different layout each way. In a pcap, packets to -port go client to
// server, packets from it server to client. A packet that cannot be decoded
// is printed with the byte offset and the reason, and the command then
// exits with status 1, after printing everything else.
package main

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"reflect"

	"github.com/ticnet/ticnet/netcore/wire"
)

func main() {
	port := flag.Uint("port", 2342, "the server's UDP port (pcap input)")
	lowres := flag.Bool("lowres", false, "the game sends turning as one byte (lowres_turn)")
	flag.Parse()
	out := json.NewEncoder(os.Stdout)
	bad := false
	files := flag.Args()
	if len(files) == 0 {
		files = []string{"-"}
	}
	for _, name := range files {
		var data []byte
		var err error
		if name == "-" {
			data, err = io.ReadAll(os.Stdin)
		} else {
			data, err = os.ReadFile(name)
		}
		if err == nil {
			var n int
			n, err = dump(out, data, uint16(*port), *lowres)
			bad = bad || n > 0
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "ticnet-dump: %s: %v\n", name, err)
			bad = true
		}
	}
	if bad {
		os.Exit(1)
	}
}

// dump prints every packet of data and returns how many did not decode.
func dump(out *json.Encoder, data []byte, port uint16, lowres bool) (int, error) {
	in, err := parseInput(data, port)
	failed := 0
	for _, p := range in.packets {
		if !describe(out, p, lowres) {
			failed++
		}
	}
	if in.skipped > 0 {
		fmt.Fprintf(os.Stderr, "ticnet-dump: %d pcap records were not IPv4 UDP (or were fragments) and were skipped\n", in.skipped)
	}
	return failed, err
}

// record is one packet's JSON line.
type record struct {
	N        int      `json:"n"`
	Time     *float64 `json:"time,omitempty"`
	Src      string   `json:"src,omitempty"`
	Dst      string   `json:"dst,omitempty"`
	Dir      string   `json:"dir"`
	Len      int      `json:"len"`
	Type     string   `json:"type,omitempty"`
	Reliable bool     `json:"reliable"`
	Seq      *uint8   `json:"seq,omitempty"`
	Fields   any      `json:"fields,omitempty"`
	Error    string   `json:"error,omitempty"`
	Offset   *int     `json:"offset,omitempty"`
	Reason   string   `json:"reason,omitempty"`
	Hex      string   `json:"hex,omitempty"`
}

// describe prints one packet; false if it did not decode.
func describe(out *json.Encoder, p packet, lowres bool) bool {
	r := record{N: p.n, Src: p.src, Dst: p.dst, Len: len(p.data), Dir: "?"}
	if p.src != "" {
		r.Time = &p.time
	}
	dirs := []wire.Direction{wire.ServerToClient, wire.ClientToServer}
	if p.dirKnown {
		dirs = []wire.Direction{p.dir}
	}
	var h wire.Header
	var m wire.Message
	var err error
	for _, d := range dirs {
		if h, m, err = wire.DecodePacket(p.data, d, lowres); err == nil {
			if p.dirKnown {
				r.Dir = d.String()
			}
			break
		}
	}
	r.Reliable = h.Reliable
	if h.Reliable {
		r.Seq = &h.Seq
	}
	if err != nil {
		r.Error = err.Error()
		r.Hex = hex.EncodeToString(p.data)
		var de *wire.DecodeError
		if errors.As(err, &de) {
			r.Offset, r.Reason = &de.Offset, de.Field+": "+de.Reason
		}
		out.Encode(r)
		return false
	}
	r.Type = h.Type.String()
	r.Fields = fields(reflect.ValueOf(m))
	out.Encode(r)
	return true
}

// fields turns a decoded message into JSON-friendly values: byte arrays
// (hashes) as hex, the rest as they are.
func fields(v reflect.Value) any {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return fields(v.Elem())
	case reflect.Struct:
		m := map[string]any{}
		for i := range v.NumField() {
			f := v.Type().Field(i)
			if f.IsExported() {
				if f.Anonymous {
					for k, x := range fields(v.Field(i)).(map[string]any) {
						m[k] = x
					}
					continue
				}
				m[f.Name] = fields(v.Field(i))
			}
		}
		return m
	case reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 && v.Len() == 20 {
			b := make([]byte, v.Len())
			reflect.Copy(reflect.ValueOf(b), v)
			return hex.EncodeToString(b)
		}
		fallthrough
	case reflect.Slice:
		l := make([]any, v.Len())
		for i := range l {
			l[i] = fields(v.Index(i))
		}
		return l
	}
	return v.Interface()
}
