package wire

import "strconv"

// The kinds of the server's word on the tics a watcher runs: an Attest,
// server to everyone, unreliable (or to one watcher that asked); a
// Signer, server to a watcher, reliable; an AttestFetch, a watcher's
// question, unreliable.
const (
	TicnetKindAttest      = 30
	TicnetKindSigner      = 31
	TicnetKindAttestFetch = 32
)

// The lengths of a chain of tics (tic.Chain), a server's signing key and
// a signature (Ed25519, auth.Signer).
const (
	ChainLen     = 16
	SignerLen    = 32
	SignatureLen = 64
)

// Attest is the server's signature of the chain of the tics it sent,
// through Tic (tic.Chain): a watcher, which has no tag of its own in the
// server's broadcasts, runs the tics it took, from the server or from
// another copy, only once a chain the server signed vouches for them.
//
//	u8 kind ; u32 tic ; 16 chain ; 64 signature
type Attest struct {
	Tic   uint32
	Chain [ChainLen]byte
	Sig   [SignatureLen]byte
}

func (*Attest) Type() Type { return TypeTicnet }

func (m *Attest) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindAttest)
	w.U32(m.Tic)
	w.Bytes(m.Chain[:])
	w.Bytes(m.Sig[:])
	return w.Buf
}

func (m *Attest) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindAttest {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not an attest")
	}
	m.Tic = r.U32("tic")
	r.Bytes(m.Chain[:], "chain")
	r.Bytes(m.Sig[:], "signature")
	return bodyErr(&r, TypeTicnet)
}

// Signer tells a watcher the key that signs the server's Attests, and the
// game they are of; a watcher that joins a running game learns the chain
// it starts from in its JoinStart. Zero: the server signs nothing (an
// older ticnet, or one with no key).
//
//	u8 kind ; u32 game ; 32 key
type Signer struct {
	Game uint32
	Key  [SignerLen]byte
}

func (*Signer) Type() Type { return TypeTicnet }

func (m *Signer) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindSigner)
	w.U32(m.Game)
	w.Bytes(m.Key[:])
	return w.Buf
}

func (m *Signer) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindSigner {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not a signer")
	}
	m.Game = r.U32("game")
	r.Bytes(m.Key[:], "key")
	return bodyErr(&r, TypeTicnet)
}

// AttestFetch asks the server for the newest Attest of a tic from From
// to before Tic: a watcher holds those tics, and lost the attests that
// would vouch for them.
//
//	u8 kind ; u32 from ; u32 tic
type AttestFetch struct {
	From, Tic uint32
}

func (*AttestFetch) Type() Type { return TypeTicnet }

func (m *AttestFetch) AppendBody(dst []byte) []byte {
	w := Writer{Buf: dst}
	w.U8(TicnetKindAttestFetch)
	w.U32(m.From)
	w.U32(m.Tic)
	return w.Buf
}

func (m *AttestFetch) DecodeBody(body []byte) error {
	r := NewReader(body, 0)
	if k := r.U8("kind"); r.err == nil && k != TicnetKindAttestFetch {
		r.failAt(0, "kind", "kind "+strconv.Itoa(int(k))+" is not an attest fetch")
	}
	m.From = r.U32("from")
	m.Tic = r.U32("tic")
	return bodyErr(&r, TypeTicnet)
}
