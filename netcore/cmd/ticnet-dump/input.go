package main

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"

	"github.com/ticnet/ticnet/netcore/wire"
)

// maxRecord bounds a pcap record: its length field is input, and hostile.
const maxRecord = 256 << 10

// packet is one datagram found in the input.
type packet struct {
	n        int
	dir      wire.Direction
	dirKnown bool
	data     []byte
	time     float64 // pcap: seconds since the epoch
	src, dst string  // pcap: ip:port
}

// input is what parseInput found: the packets, and what it skipped.
type input struct {
	packets []packet
	skipped int // pcap records that are not IPv4 UDP, or fragments
	pcap    bool
}

// parseInput reads a pcap file (detected by its magic number) or lines of
// hex. port is the server's UDP port: it gives the direction of pcap packets.
func parseInput(data []byte, port uint16) (input, error) {
	if len(data) >= 4 {
		switch binary.LittleEndian.Uint32(data) {
		case 0xa1b2c3d4, 0xa1b23c4d:
			return parsePcap(data, binary.LittleEndian, port)
		case 0xd4c3b2a1, 0x4d3cb2a1:
			return parsePcap(data, binary.BigEndian, port)
		}
	}
	return parseHex(data)
}

func parseHex(data []byte) (input, error) {
	var in input
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 64<<10), 4<<20)
	line := 0
	for sc.Scan() {
		line++
		s := strings.TrimSpace(sc.Text())
		if s == "" || strings.HasPrefix(s, "#") || strings.HasPrefix(s, "@") {
			continue
		}
		p := packet{n: len(in.packets)}
		switch {
		case strings.HasPrefix(s, "C>"):
			p.dir, p.dirKnown, s = wire.ClientToServer, true, s[2:]
		case strings.HasPrefix(s, "S>"):
			p.dir, p.dirKnown, s = wire.ServerToClient, true, s[2:]
		case strings.HasPrefix(s, "HEX "):
			s = s[4:]
		case strings.HasPrefix(s, "###"):
			continue // a vector file's packet header
		}
		s = strings.Join(strings.Fields(s), "")
		b, err := hex.DecodeString(s)
		if err != nil {
			return in, fmt.Errorf("line %d: not hex: %v", line, err)
		}
		p.data = b
		in.packets = append(in.packets, p)
	}
	return in, sc.Err()
}

func parsePcap(data []byte, bo binary.ByteOrder, port uint16) (input, error) {
	in := input{pcap: true}
	if len(data) < 24 {
		return in, fmt.Errorf("pcap: header cut short (%d bytes)", len(data))
	}
	nano := bo.Uint32(data) == 0xa1b23c4d
	link := bo.Uint32(data[20:])
	for off := 24; off < len(data); {
		if len(data)-off < 16 {
			return in, fmt.Errorf("pcap: record header cut short at byte %d", off)
		}
		sec, frac := bo.Uint32(data[off:]), bo.Uint32(data[off+4:])
		n := bo.Uint32(data[off+8:])
		if n > maxRecord {
			return in, fmt.Errorf("pcap: record at byte %d claims %d bytes (limit %d)", off, n, maxRecord)
		}
		off += 16
		if int(n) > len(data)-off {
			return in, fmt.Errorf("pcap: record at byte %d cut short", off-16)
		}
		rec := data[off : off+int(n)]
		off += int(n)
		ts := float64(sec) + float64(frac)/1e6
		if nano {
			ts = float64(sec) + float64(frac)/1e9
		}
		p, ok := udp(rec, link)
		if !ok {
			in.skipped++
			continue
		}
		p.n, p.time = len(in.packets), ts
		switch {
		case p.dstPort == port:
			p.dir, p.dirKnown = wire.ClientToServer, true
		case p.srcPort == port:
			p.dir, p.dirKnown = wire.ServerToClient, true
		}
		in.packets = append(in.packets, p.packet)
	}
	return in, nil
}

type udpPacket struct {
	packet
	srcPort, dstPort uint16
}

// udp finds the IPv4 UDP payload of a link-layer frame.
func udp(rec []byte, link uint32) (udpPacket, bool) {
	var ip []byte
	switch link {
	case 1: // Ethernet
		if len(rec) < 14 {
			return udpPacket{}, false
		}
		etype, rest := binary.BigEndian.Uint16(rec[12:]), rec[14:]
		if etype == 0x8100 && len(rest) >= 4 { // one VLAN tag
			etype, rest = binary.BigEndian.Uint16(rest[2:]), rest[4:]
		}
		if etype != 0x0800 {
			return udpPacket{}, false
		}
		ip = rest
	case 101, 228: // raw IP, raw IPv4
		ip = rec
	case 113: // Linux cooked
		if len(rec) < 16 || binary.BigEndian.Uint16(rec[14:]) != 0x0800 {
			return udpPacket{}, false
		}
		ip = rec[16:]
	case 0: // BSD loopback: a 4-byte address family in the host's order
		if len(rec) < 4 || (binary.LittleEndian.Uint32(rec) != 2 && binary.BigEndian.Uint32(rec) != 2) {
			return udpPacket{}, false
		}
		ip = rec[4:]
	default:
		return udpPacket{}, false
	}
	if len(ip) < 20 || ip[0]>>4 != 4 || ip[9] != 17 {
		return udpPacket{}, false
	}
	ihl := int(ip[0]&15) * 4
	if ihl < 20 || len(ip) < ihl+8 {
		return udpPacket{}, false
	}
	if frag := binary.BigEndian.Uint16(ip[6:]); frag&0x3fff != 0 {
		return udpPacket{}, false // a fragment: not reassembled
	}
	u := ip[ihl:]
	ulen := int(binary.BigEndian.Uint16(u[4:]))
	if ulen < 8 || ulen > len(u) {
		return udpPacket{}, false
	}
	p := udpPacket{srcPort: binary.BigEndian.Uint16(u), dstPort: binary.BigEndian.Uint16(u[2:])}
	p.data = u[8:ulen]
	p.src = fmt.Sprintf("%d.%d.%d.%d:%d", ip[12], ip[13], ip[14], ip[15], p.srcPort)
	p.dst = fmt.Sprintf("%d.%d.%d.%d:%d", ip[16], ip[17], ip[18], ip[19], p.dstPort)
	return p, true
}
