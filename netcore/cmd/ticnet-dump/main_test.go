package main

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"strings"
	"testing"
)

// ethUDP wraps a payload in Ethernet, IPv4 and UDP headers.
func ethUDP(payload []byte, srcPort, dstPort uint16) []byte {
	b := make([]byte, 14, 14+28+len(payload))
	binary.BigEndian.PutUint16(b[12:], 0x0800)
	ip := make([]byte, 20)
	ip[0], ip[9] = 0x45, 17
	binary.BigEndian.PutUint16(ip[2:], uint16(28+len(payload)))
	copy(ip[12:], []byte{127, 0, 0, 1})
	copy(ip[16:], []byte{127, 0, 0, 1})
	u := make([]byte, 8)
	binary.BigEndian.PutUint16(u, srcPort)
	binary.BigEndian.PutUint16(u[2:], dstPort)
	binary.BigEndian.PutUint16(u[4:], uint16(8+len(payload)))
	return append(append(append(b, ip...), u...), payload...)
}

// pcapOf builds a little-endian microsecond pcap of Ethernet frames.
func pcapOf(frames ...[]byte) []byte {
	h := make([]byte, 24)
	binary.LittleEndian.PutUint32(h, 0xa1b2c3d4)
	binary.LittleEndian.PutUint16(h[4:], 2)
	binary.LittleEndian.PutUint16(h[6:], 4)
	binary.LittleEndian.PutUint32(h[16:], 65535)
	binary.LittleEndian.PutUint32(h[20:], 1)
	for i, f := range frames {
		r := make([]byte, 16)
		binary.LittleEndian.PutUint32(r, uint32(1000+i))
		binary.LittleEndian.PutUint32(r[8:], uint32(len(f)))
		binary.LittleEndian.PutUint32(r[12:], uint32(len(f)))
		h = append(append(h, r...), f...)
	}
	return h
}

func run(t *testing.T, data []byte, lowres bool) ([]map[string]any, int) {
	t.Helper()
	var buf bytes.Buffer
	failed, err := dump(json.NewEncoder(&buf), data, 2342, lowres)
	if err != nil {
		t.Fatal(err)
	}
	var recs []map[string]any
	dec := json.NewDecoder(&buf)
	for dec.More() {
		var r map[string]any
		if err := dec.Decode(&r); err != nil {
			t.Fatal(err)
		}
		recs = append(recs, r)
	}
	return recs, failed
}

// Real packets from the vectors: a client's SYN, the server's GAMEDATA.
var (
	synHex  = "000056abe18c43686f636f6c61746520446f6f6d20332e302e30000143484f434f4c4154455f444f4f4d5f30000201000004010f9caf3cac3392deea003d3159a14f6156bd7a46daaf56c1dcc08a2e7668814811b2cab0cc7d52c15b4772756d7079204d616e637562757300"
	sgdHex  = "0006c3020002021012000402103a"
	cgdHex  = "0006c4c302000410120004103a"
	consHex = "800c01436c69656e74202746616b65476f272074696d6564206f757420616e6420646973636f6e6e656374656400"
)

func unhex(s string) []byte {
	b := make([]byte, len(s)/2)
	for i := range b {
		var v byte
		for _, c := range s[2*i : 2*i+2] {
			v <<= 4
			switch {
			case c >= '0' && c <= '9':
				v |= byte(c - '0')
			default:
				v |= byte(c-'a') + 10
			}
		}
		b[i] = v
	}
	return b
}

func TestPcapPacketsAreDecodedWithTheirDirection(t *testing.T) {
	data := pcapOf(ethUDP(unhex(synHex), 56096, 2342), ethUDP(unhex(sgdHex), 2342, 56096), ethUDP(unhex(cgdHex), 50983, 2342))
	recs, failed := run(t, data, false)
	if failed != 0 || len(recs) != 3 {
		t.Fatalf("%d records, %d failed", len(recs), failed)
	}
	if recs[0]["type"] != "SYN" || recs[0]["dir"] != "C>S" || recs[0]["src"] != "127.0.0.1:56096" {
		t.Fatalf("first: %v", recs[0])
	}
	f := recs[0]["fields"].(map[string]any)
	if f["PlayerName"] != "Grumpy Mancubus" || f["Connect"].(map[string]any)["WADSHA1"] != "0f9caf3cac3392deea003d3159a14f6156bd7a46" {
		t.Fatalf("SYN fields: %v", f)
	}
	if recs[1]["dir"] != "S>C" || recs[1]["type"] != "GAMEDATA" {
		t.Fatalf("second: %v", recs[1])
	}
	tics := recs[1]["fields"].(map[string]any)["Tics"].([]any)
	if len(tics) != 2 || tics[0].(map[string]any)["InGame"].(float64) != 2 {
		t.Fatalf("server tics: %v", tics)
	}
	if recs[2]["fields"].(map[string]any)["Ack"].(float64) != 196 {
		t.Fatalf("client GAMEDATA: %v", recs[2])
	}
}

func TestHexLinesAndABadPacket(t *testing.T) {
	in := "# a capture\nC> " + synHex + "\nS> " + consHex + "\n\nS> 0006c30500\nHEX 000a02\n"
	recs, failed := run(t, []byte(in), false)
	if len(recs) != 4 || failed != 1 {
		t.Fatalf("%d records, %d failed: %v", len(recs), failed, recs)
	}
	if r := recs[1]; r["reliable"] != true || r["seq"].(float64) != 1 || r["type"] != "CONSOLE_MESSAGE" {
		t.Fatalf("console message: %v", r)
	}
	bad := recs[2]
	if bad["error"] == nil || bad["offset"].(float64) != 4 || !strings.Contains(bad["reason"].(string), "num_tics") {
		t.Fatalf("bad packet: %v", bad)
	}
	if recs[3]["type"] != "RELIABLE_ACK" || recs[3]["dir"] != "?" {
		t.Fatalf("vector-style line: %v", recs[3])
	}
}

func TestHostilePcapLengthsAreRefused(t *testing.T) {
	data := pcapOf(ethUDP(unhex(sgdHex), 2342, 9))
	binary.LittleEndian.PutUint32(data[24+8:], 1<<30) // the record claims a gigabyte
	if _, err := parseInput(data, 2342); err == nil || !strings.Contains(err.Error(), "limit") {
		t.Fatalf("got %v", err)
	}
	if _, err := parseInput(data[:30], 2342); err == nil {
		t.Fatal("a cut record header was accepted")
	}
}

func FuzzParseInput(f *testing.F) {
	f.Add(pcapOf(ethUDP(unhex(synHex), 56096, 2342), ethUDP(unhex(sgdHex), 2342, 56096)))
	f.Add([]byte("C> " + synHex + "\nS> 0006c30500\n"))
	f.Add([]byte{0xd4, 0xc3, 0xb2, 0xa1})
	f.Fuzz(func(t *testing.T, data []byte) {
		in, _ := parseInput(data, 2342)
		total := 0
		for _, p := range in.packets {
			total += len(p.data)
		}
		if total > len(data) {
			t.Fatalf("%d payload bytes from %d input bytes", total, len(data))
		}
		var buf bytes.Buffer
		dump(json.NewEncoder(&buf), data, 2342, false)
	})
}
