package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"github.com/ticnet/ticnet/netcore/wire"
)

// maxRecord bounds a pcap record. Its length field is input, so it may be
// hostile: a larger one is an error, not an allocation.
const maxRecord = 256 << 10

// packet is one datagram found in the input.
type packet struct {
	data     []byte
	dir      wire.Direction
	dirKnown bool
	line     int    // hex input: the line it came from
	time     string // pcap: seconds since the epoch, as exactly as the file has it
	src, dst string // pcap: ip:port
	err      error  // the input held something here that is not a packet
}

// input is what parseInput found.
type input struct {
	pcap    bool
	packets []packet
	skipped int // pcap records that are not IPv4 UDP (or are fragments)
}

// pcap magic numbers, as read little-endian from the file's first 4 bytes.
const (
	pcapMicroLE = 0xa1b2c3d4 // written little-endian, microseconds
	pcapNanoLE  = 0xa1b23c4d
	pcapMicroBE = 0xd4c3b2a1 // written big-endian
	pcapNanoBE  = 0x4d3cb2a1
	pcapngMagic = 0x0a0d0d0a
)

// parseInput reads a classic pcap file (detected by its magic number) or
// lines of hex. port is the server's UDP port: it gives the direction of a
// pcap packet. What parseInput keeps is bounded by the input: every packet
// is a slice of data or decoded from a line of it. An error means the input
// could not be read to its end; the packets before that are returned.
func parseInput(data []byte, port uint16) (input, error) {
	if len(data) >= 4 {
		switch binary.LittleEndian.Uint32(data) {
		case pcapMicroLE, pcapNanoLE:
			return parsePcap(data, binary.LittleEndian, port)
		case pcapMicroBE, pcapNanoBE:
			return parsePcap(data, binary.BigEndian, port)
		case pcapngMagic:
			return input{}, errors.New("pcapng is not supported: write classic pcap (tcpdump -w, or editcap -F pcap)")
		}
	}
	return parseHex(data), nil
}

// parseHex reads one packet of hex per line, optionally after "C>" (client
// to server) or "S>" (server to client), or after "HEX " as in the vector
// files (direction unknown). Blank lines, lines starting with '#' and the
// vector files' "@offset" annotation lines are skipped. A line that is not
// hex becomes a packet with an error.
func parseHex(data []byte) input {
	var in input
	for i, raw := range bytes.Split(data, []byte("\n")) {
		s := strings.TrimSpace(string(raw))
		if s == "" || s[0] == '#' || s[0] == '@' {
			continue
		}
		p := packet{line: i + 1}
		switch {
		case strings.HasPrefix(s, "C>"):
			p.dir, p.dirKnown, s = wire.ClientToServer, true, s[2:]
		case strings.HasPrefix(s, "S>"):
			p.dir, p.dirKnown, s = wire.ServerToClient, true, s[2:]
		case strings.HasPrefix(s, "HEX "):
			s = s[4:]
		}
		s = strings.Join(strings.Fields(s), "")
		b, err := hex.DecodeString(s)
		if err != nil {
			p.err = fmt.Errorf("line %d is not hex: %v", p.line, err)
		}
		p.data = b
		in.packets = append(in.packets, p)
	}
	return in
}

func parsePcap(data []byte, bo binary.ByteOrder, port uint16) (input, error) {
	in := input{pcap: true}
	if len(data) < 24 {
		return in, fmt.Errorf("pcap: file header cut short (%d of 24 bytes)", len(data))
	}
	magic := bo.Uint32(data)
	nano := magic == pcapNanoLE
	if major := bo.Uint16(data[4:]); major != 2 {
		return in, fmt.Errorf("pcap: version %d.%d, want 2.x", major, bo.Uint16(data[6:]))
	}
	link := bo.Uint32(data[20:]) & 0xffff // the upper bits describe an FCS
	for off := 24; off < len(data); {
		if len(data)-off < 16 {
			return in, fmt.Errorf("pcap: record header at byte %d cut short", off)
		}
		sec, frac := bo.Uint32(data[off:]), bo.Uint32(data[off+4:])
		incl := bo.Uint32(data[off+8:]) // the original length at off+12 may be more: see udpPayload
		if incl > maxRecord {
			return in, fmt.Errorf("pcap: record at byte %d claims %d bytes (limit %d)", off, incl, maxRecord)
		}
		if int(incl) > len(data)-off-16 {
			return in, fmt.Errorf("pcap: record at byte %d claims %d bytes, the file has %d", off, incl, len(data)-off-16)
		}
		rec := data[off+16 : off+16+int(incl)]
		off += 16 + int(incl)
		p, ok := udpPayload(rec, link)
		if !ok {
			in.skipped++
			continue
		}
		if nano {
			ns := uint64(sec)*1e9 + uint64(frac)
			p.time = fmt.Sprintf("%d.%09d", ns/1e9, ns%1e9)
		} else {
			us := uint64(sec)*1e6 + uint64(frac)
			p.time = fmt.Sprintf("%d.%06d", us/1e6, us%1e6)
		}
		in.packets = append(in.packets, p.withDirection(port))
	}
	return in, nil
}

// datagram is a UDP datagram found in a link-layer frame.
type datagram struct {
	packet
	srcPort, dstPort uint16
}

func (d datagram) withDirection(port uint16) packet {
	p := d.packet
	switch {
	case d.dstPort == port:
		p.dir, p.dirKnown = wire.ClientToServer, true
	case d.srcPort == port:
		p.dir, p.dirKnown = wire.ServerToClient, true
	}
	return p
}

// Link types (www.tcpdump.org/linktypes.html).
const (
	linkNull     = 0   // BSD loopback: 4-byte address family, host byte order
	linkEthernet = 1   //
	linkRaw      = 101 // raw IP
	linkSLL      = 113 // Linux cooked capture
	linkIPv4     = 228 // raw IPv4
	linkSLL2     = 276 // Linux cooked capture v2 (tcpdump -i any)
)

// udpPayload finds the IPv4 UDP datagram in a frame. ok is false for
// anything else: other link types, ARP, IPv6, TCP, fragments.
func udpPayload(rec []byte, link uint32) (d datagram, ok bool) {
	var ip []byte
	switch link {
	case linkEthernet:
		if len(rec) < 14 {
			return d, false
		}
		etype, rest := binary.BigEndian.Uint16(rec[12:]), rec[14:]
		for (etype == 0x8100 || etype == 0x88a8) && len(rest) >= 4 { // VLAN tags
			etype, rest = binary.BigEndian.Uint16(rest[2:]), rest[4:]
		}
		if etype != 0x0800 {
			return d, false
		}
		ip = rest
	case linkRaw, linkIPv4:
		ip = rec
	case linkSLL:
		if len(rec) < 16 || binary.BigEndian.Uint16(rec[14:]) != 0x0800 {
			return d, false
		}
		ip = rec[16:]
	case linkSLL2:
		if len(rec) < 20 || binary.BigEndian.Uint16(rec) != 0x0800 {
			return d, false
		}
		ip = rec[20:]
	case linkNull:
		if len(rec) < 4 || (binary.LittleEndian.Uint32(rec) != 2 && binary.BigEndian.Uint32(rec) != 2) {
			return d, false // 2 is AF_INET everywhere
		}
		ip = rec[4:]
	default:
		return d, false
	}
	if len(ip) < 20 || ip[0]>>4 != 4 || ip[9] != 17 {
		return d, false
	}
	ihl := int(ip[0]&0x0f) * 4
	if ihl < 20 || len(ip) < ihl+8 {
		return d, false
	}
	if frag := binary.BigEndian.Uint16(ip[6:]); frag&0x3fff != 0 {
		return d, false // a fragment: not reassembled
	}
	if total := int(binary.BigEndian.Uint16(ip[2:])); total >= ihl+8 && total < len(ip) {
		ip = ip[:total] // drop link-layer padding
	}
	u := ip[ihl:]
	d.srcPort, d.dstPort = binary.BigEndian.Uint16(u), binary.BigEndian.Uint16(u[2:])
	d.src = fmt.Sprintf("%d.%d.%d.%d:%d", ip[12], ip[13], ip[14], ip[15], d.srcPort)
	d.dst = fmt.Sprintf("%d.%d.%d.%d:%d", ip[16], ip[17], ip[18], ip[19], d.dstPort)
	ulen := int(binary.BigEndian.Uint16(u[4:]))
	switch {
	case ulen < 8:
		d.data = u[8:]
		d.err = fmt.Errorf("UDP length %d is less than its header", ulen)
	case ulen > len(u):
		d.data = u[8:]
		d.err = fmt.Errorf("UDP length %d, %d bytes captured (snaplen or a cut frame)", ulen, len(u))
	default:
		d.data = u[8:ulen]
	}
	return d, true
}
