package wire

import (
	"encoding/hex"
	"strconv"
	"strings"
)

// Connection identity (ProtocolTicnet). The reference protocol cannot tell
// a late copy of an old connection's frame from a fresh one: a SYN reply
// or a DISCONNECT meant for a connection the copy gave up is taken by its
// new one under the same address. Under the extension each connection has
// an identity, chosen by the client at its handshake, and each server a
// term, which every migration or hand-off increments:
//
//   - The client offers ProtocolTicnet as OfferName(conn, key) in its SYN,
//     in place of the bare name, with its public key. The reference keeps
//     the last name it recognises, so a real server still picks
//     ProtocolChocolate.
//   - The server answers with ReplyName(conn, term, key) as its chosen
//     protocol, with its own public key: a reply that names another
//     connection is an old one's. From the two keys both ends derive the
//     connection's (netcore/auth), which authenticate every later frame.
//   - Every later frame of the connection, either way, carries the
//     connection's tag (ConnTag) in the bits of its type field that no
//     type uses (7-14: every type is below 0x80), so that it costs no
//     byte; a frame the server broadcasts carries its term's (TermTag).
//     The receiver drops and counts a frame with another tag: another
//     connection's, or another term's.
//
// A tag is 8 bits: a connection's tells it from the client's last 127
// connections, a term's from the last 128 terms. The handshake's names
// carry the identity whole.

// Ident names a connection and the term of its server.
type Ident struct {
	Conn uint32 // chosen by the client, never 0
	Term uint16 // the server's term; 0: not known yet (a client before its server's reply)
}

// ConnTag is the tag of a connection's frames, 1 to 127: never 0 (a
// frame with no tag is the handshake's, or the reference's), never a
// term's. A client that numbers its connections in their identities'
// remainder by 127 (as netcore does) gives each of its last 127 a tag of
// its own, so that no late frame of one passes for another's.
func ConnTag(conn uint32) uint8 { return uint8(1 + conn%127) }

// TermTag is the tag of the frames a server broadcasts in its term, 128
// to 255: the last 128 terms' differ.
func TermTag(term uint16) uint8 { return uint8(128 + term%128) }

// TagOf reads a frame's tag (0: none, or a frame too short to have a
// type field).
func TagOf(frame []byte) uint8 {
	if len(frame) < 2 {
		return 0
	}
	return frame[0]&0x7f<<1 | frame[1]>>7
}

// SetTag writes tag into a frame's type field (0 clears it, which leaves
// the frame as the reference has it). A frame too short to have a type
// field is left alone.
func SetTag(frame []byte, tag uint8) {
	if len(frame) < 2 {
		return
	}
	frame[0] = frame[0]&0x80 | tag>>1
	frame[1] = frame[1]&0x7f | tag<<7
}

// PublicKey is a copy's public key (X25519), which a client offers with
// its identity and a server answers with, so that the two agree on the
// connection's keys (netcore/auth). A host's own client, in the server's
// process, offers none, and gets none.
type PublicKey [32]byte

// OfferName is how a client that speaks ProtocolTicnet offers it in its
// SYN: with the identity it chose for the connection, and its public key
// (nil: none).
func OfferName(conn uint32, key *PublicKey) string {
	return ProtocolTicnet + "/" + hexN(uint64(conn), 8) + keySuffix(key)
}

// ReplyName is a server's choice of ProtocolTicnet, in its SYN reply, for
// the connection conn, in its term, with its public key (nil: none).
func ReplyName(conn uint32, term uint16, key *PublicKey) string {
	return ProtocolTicnet + "/" + hexN(uint64(conn), 8) + "." + hexN(uint64(term), 4) + keySuffix(key)
}

func keySuffix(key *PublicKey) string {
	if key == nil {
		return ""
	}
	return "/" + hex.EncodeToString(key[:])
}

// ParseOffer reads an offered protocol name: ProtocolTicnet with its
// connection's identity and the client's key (nil: none), or any other
// name as it is (conn 0).
func ParseOffer(name string) (proto string, conn uint32, key *PublicKey) {
	head, key, ok := cutKey(name)
	if c, hok := parseHex(head, ProtocolTicnet+"/", 8); ok && hok && c != 0 {
		return ProtocolTicnet, uint32(c), key
	}
	return name, 0, nil
}

// ParseReply reads a server's chosen protocol: ProtocolTicnet with the
// connection and term it names and the server's key (nil: none) (ok),
// or another name (not ok).
func ParseReply(name string) (id Ident, key *PublicKey, ok bool) {
	rest, key, kok := cutKey(name)
	head, term, found := strings.Cut(rest, ".")
	if !found || !kok {
		return Ident{}, nil, false
	}
	c, cok := parseHex(head, ProtocolTicnet+"/", 8)
	t, tok := parseHex(term, "", 4)
	if c == 0 || !cok || !tok {
		return Ident{}, nil, false
	}
	return Ident{Conn: uint32(c), Term: uint16(t)}, key, true
}

// cutKey takes a key suffix off name: ok false if it has a malformed one.
func cutKey(name string) (head string, key *PublicKey, ok bool) {
	i := strings.LastIndexByte(name, '/')
	if i < 0 || i == len(ProtocolTicnet) { // no suffix: the one slash is the identity's
		return name, nil, true
	}
	k, err := hex.DecodeString(name[i+1:])
	if err != nil || len(k) != len(PublicKey{}) || strings.ToLower(name[i+1:]) != name[i+1:] {
		return name, nil, false
	}
	return name[:i], (*PublicKey)(k), true
}

// hex8 writes v as exactly digits lower-case hex digits.
func hexN(v uint64, digits int) string {
	s := strconv.FormatUint(v, 16)
	return strings.Repeat("0", max(digits-len(s), 0)) + s
}

// parseHex reads exactly digits lower-case hex digits after prefix.
func parseHex(s, prefix string, digits int) (uint64, bool) {
	rest, ok := strings.CutPrefix(s, prefix)
	if !ok || len(rest) != digits {
		return 0, false
	}
	for _, r := range rest {
		if !('0' <= r && r <= '9' || 'a' <= r && r <= 'f') {
			return 0, false
		}
	}
	v, err := strconv.ParseUint(rest, 16, 64)
	return v, err == nil
}
