package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/netip"
	"slices"
	"strings"
	"time"

	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"

	"github.com/ticnet/ticnet/netcore/wire"
)

// packet is one datagram found in the input.
type packet struct {
	data     []byte
	dir      wire.Direction
	dirKnown bool
	line     int    // hex input: the line it came from
	time     string // captures: seconds since the epoch, to the file's resolution
	src, dst string // captures: ip:port
	err      error  // the input held something here that is not a packet
}

// input is what parseInput found.
type input struct {
	capture string // "pcap" or "pcapng"; "" for hex lines
	packets []packet
	skipped int // capture records that are not IPv4 UDP (or are fragments)
}

// Magic numbers, as read little-endian from a file's first 4 bytes.
const (
	pcapMicroLE = 0xa1b2c3d4 // classic pcap written little-endian, microseconds
	pcapNanoLE  = 0xa1b23c4d
	pcapMicroBE = 0xd4c3b2a1 // written big-endian
	pcapNanoBE  = 0x4d3cb2a1
	pcapngMagic = 0x0a0d0d0a // a pcapng section header block, either byte order
)

// parseInput reads a capture file, classic pcap or pcapng (detected by the
// magic number), or lines of hex. port is the server's UDP port: it gives
// the direction of a captured packet. What parseInput keeps is bounded by
// the input: every packet holds bytes read from data once, or is decoded
// from a line of it. An error means the input could not be read to its
// end; the packets before that are returned.
func parseInput(data []byte, port uint16) (input, error) {
	if len(data) >= 4 {
		switch binary.LittleEndian.Uint32(data) {
		case pcapMicroLE, pcapNanoLE, pcapMicroBE, pcapNanoBE:
			return readPcap(data, port)
		case pcapngMagic:
			return readPcapng(data, port)
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

// frame is one record of a capture file: the link-layer frame, its link
// type and how many decimal digits of its timestamp the file holds.
type frame struct {
	data   []byte
	ci     gopacket.CaptureInfo
	link   layers.LinkType
	digits int
}

func readPcap(data []byte, port uint16) (input, error) {
	r, err := pcapgo.NewReader(bytes.NewReader(data))
	if err != nil {
		return input{capture: "pcap"}, fmt.Errorf("pcap: file header: %w", readErr(err))
	}
	digits := 6
	if r.Resolution().Exponent == -9 {
		digits = 9
	}
	return readFrames("pcap", port, func() (frame, error) {
		b, ci, err := r.ReadPacketData()
		return frame{b, ci, r.LinkType(), digits}, err
	})
}

// readPcapng reads every interface's packets, whatever its link type (a
// capture on several interfaces may mix them), with each interface's
// timestamp resolution.
func readPcapng(data []byte, port uint16) (input, error) {
	r, err := pcapgo.NewNgReader(bytes.NewReader(data), pcapgo.NgReaderOptions{WantMixedLinkType: true})
	if err != nil {
		return input{capture: "pcapng"}, fmt.Errorf("pcapng: section header: %w", readErr(err))
	}
	return readFrames("pcapng", port, func() (frame, error) {
		b, ci, err := r.ReadPacketData()
		if err != nil {
			return frame{}, err
		}
		f := frame{data: b, ci: ci, digits: 9}
		if len(ci.AncillaryData) > 0 {
			f.link, _ = ci.AncillaryData[0].(layers.LinkType)
		}
		if intf, err := r.Interface(ci.InterfaceIndex); err == nil && !intf.TimestampResolution.Binary() {
			f.digits = min(int(intf.TimestampResolution.Exponent()), 9)
		}
		return f, nil
	})
}

// readFrames reads frames until the end of the file or the first error.
func readFrames(capture string, port uint16, next func() (frame, error)) (input, error) {
	in := input{capture: capture}
	links := newLinkLayers()
	for n := 1; ; n++ {
		f, err := next()
		if err == io.EOF {
			return in, nil
		}
		if err != nil {
			return in, fmt.Errorf("%s: record %d: %w", capture, n, readErr(err))
		}
		d, ok := links.udpPayload(f.data, f.link)
		if !ok {
			in.skipped++
			continue
		}
		p := d.withDirection(port)
		if !f.ci.Timestamp.IsZero() { // a pcapng simple packet block has none
			p.time = formatTime(f.ci.Timestamp, f.digits)
		}
		in.packets = append(in.packets, p)
	}
}

// readErr names a cut file as such: the readers say only "unexpected EOF".
func readErr(err error) error {
	if errors.Is(err, io.ErrUnexpectedEOF) || err == io.EOF {
		return fmt.Errorf("file cut short (%w)", err)
	}
	return err
}

// formatTime prints t as seconds with the given number of decimals.
func formatTime(t time.Time, digits int) string {
	if digits == 0 {
		return fmt.Sprint(t.Unix())
	}
	frac := t.Nanosecond()
	for range 9 - digits {
		frac /= 10
	}
	return fmt.Sprintf("%d.%0*d", t.Unix(), digits, frac)
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

// firstLayers are the link types read, and the layer each begins with.
var firstLayers = map[layers.LinkType]gopacket.LayerType{
	layers.LinkTypeEthernet:  layers.LayerTypeEthernet,
	layers.LinkTypeRaw:       layers.LayerTypeIPv4,
	layers.LinkTypeIPv4:      layers.LayerTypeIPv4,
	layers.LinkTypeLinuxSLL:  layers.LayerTypeLinuxSLL,
	layers.LinkTypeLinuxSLL2: layers.LayerTypeLinuxSLL2,
	layers.LinkTypeNull:      layers.LayerTypeLoopback, // BSD loopback
}

// linkLayers finds UDP datagrams in frames with gopacket's layers: a
// parser for each link type, decoding into the same layers.
type linkLayers struct {
	eth     layers.Ethernet
	vlan    layers.Dot1Q
	lo      layers.Loopback
	sll     layers.LinuxSLL
	sll2    layers.LinuxSLL2
	ip4     layers.IPv4
	udp     layers.UDP
	parsers map[layers.LinkType]*gopacket.DecodingLayerParser
	found   []gopacket.LayerType
}

func newLinkLayers() *linkLayers {
	l := &linkLayers{parsers: map[layers.LinkType]*gopacket.DecodingLayerParser{}}
	for link, first := range firstLayers {
		p := gopacket.NewDecodingLayerParser(first, &l.eth, &l.vlan, &l.lo, &l.sll, &l.sll2, &l.ip4, &l.udp)
		// Decoding stops, without an error, at a layer not listed: ARP,
		// IPv6, TCP, a fragment (not reassembled), UDP's payload.
		p.IgnoreUnsupported = true
		l.parsers[link] = p
	}
	return l
}

// udpPayload finds the IPv4 UDP datagram in a frame. ok is false for
// anything else.
func (l *linkLayers) udpPayload(frame []byte, link layers.LinkType) (d datagram, ok bool) {
	p := l.parsers[link]
	if p == nil {
		return d, false
	}
	// An error only says which layer did not decode: the datagram is there
	// or not.
	_ = p.DecodeLayers(frame, &l.found)
	// Raw IP may be IPv6, which the IPv4 layer would read without checking.
	if !slices.Contains(l.found, layers.LayerTypeUDP) || l.ip4.Version != 4 {
		return d, false
	}
	d.srcPort, d.dstPort = uint16(l.udp.SrcPort), uint16(l.udp.DstPort)
	d.src, d.dst = addrPort(l.ip4.SrcIP, d.srcPort), addrPort(l.ip4.DstIP, d.dstPort)
	d.data = l.udp.Payload
	// The layer takes 0 for a jumbogram (IPv6 only) and cuts the payload
	// to what was captured; lengths 1 to 7 do not decode.
	switch ulen := int(l.udp.Length); {
	case ulen == 0:
		d.err = errors.New("UDP length 0 is less than its header")
	case ulen > 8+len(d.data):
		d.err = fmt.Errorf("UDP length %d, %d bytes captured (snaplen or a cut frame)", ulen, 8+len(d.data))
	}
	return d, true
}

func addrPort(ip []byte, port uint16) string {
	a, _ := netip.AddrFromSlice(ip)
	return netip.AddrPortFrom(a, port).String()
}
