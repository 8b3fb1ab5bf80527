package auth

import (
	"crypto/ecdh"
	"crypto/ed25519"
	"crypto/hkdf"
	"crypto/sha256"
	"encoding/binary"
)

// A server signs, with Ed25519 (crypto/ed25519), the chain of the tics it
// sent (tic.Chain) for the copies that have no tag of their own in its
// broadcasts: a watcher checks the tics it took, from the server's
// broadcasts or from another watcher, against the signed chain before it
// runs them. One signature serves every watcher, however many watch.
const (
	SignerLen    = ed25519.PublicKeySize
	SignatureLen = ed25519.SignatureSize
)

// Signer signs the chains of one server's tics.
type Signer struct {
	priv ed25519.PrivateKey
	pub  [SignerLen]byte
}

// NewSigner derives a server's signing key from its key pair: the same
// copy signs with the same key, and no second secret need be kept.
func NewSigner(k *ecdh.PrivateKey) *Signer {
	seed, err := hkdf.Key(sha256.New, k.Bytes(), nil, "ticnet/1 signing key", ed25519.SeedSize)
	if err != nil {
		panic(err) // 32 bytes of SHA-256's HKDF cannot fail
	}
	priv := ed25519.NewKeyFromSeed(seed)
	return &Signer{priv: priv, pub: [SignerLen]byte(priv.Public().(ed25519.PublicKey))}
}

// Public is the key that checks the signer's signatures, as it goes on the
// wire.
func (s *Signer) Public() [SignerLen]byte { return s.pub }

// Sign signs that, in game, the chain of the tics through tic is chain.
func (s *Signer) Sign(game, tic uint32, chain []byte) [SignatureLen]byte {
	var msg [chainMsgLen]byte
	return [SignatureLen]byte(ed25519.Sign(s.priv, chainMessage(&msg, game, tic, chain)))
}

// CheckChain reports whether sig is pub's signature of chain as the chain
// of game's tics through tic.
func CheckChain(pub *[SignerLen]byte, game, tic uint32, chain []byte, sig *[SignatureLen]byte) bool {
	var msg [chainMsgLen]byte
	return ed25519.Verify(pub[:], chainMessage(&msg, game, tic, chain), sig[:])
}

const chainMsgLen = len(chainDomain) + 8 + 32

const chainDomain = "ticnet/1 tic chain"

// chainMessage is what a signature of a chain signs: the domain, the game,
// the tic, and the chain.
func chainMessage(buf *[chainMsgLen]byte, game, tic uint32, chain []byte) []byte {
	b := append(buf[:0], chainDomain...)
	b = binary.BigEndian.AppendUint32(b, game)
	b = binary.BigEndian.AppendUint32(b, tic)
	return append(b, chain[:min(len(chain), 32)]...)
}
