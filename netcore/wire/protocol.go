package wire

// Protocol names, as they travel in SYN and QUERY_RESPONSE. Only the name
// goes on the wire.
const (
	// ProtocolChocolate is the reference protocol, spoken by every
	// Chocolate Doom 3.x and by VectorDoom.
	ProtocolChocolate = "CHOCOLATE_DOOM_0"
	// ProtocolTicnet is ticnet's extension of it: late input is replaced by
	// the server for everyone alike, and complete tics are broadcast once.
	ProtocolTicnet = "TICNET_1"
)

// ChooseProtocol picks the protocol a server speaks with a client that
// offered the names in offered: the first name of preferred that the client
// offered. ok is false when there is none, which the reference answers with
// REJECTED.
//
// The reference server keeps the last name of the client's list that it
// knows; with the one protocol it knows that is the same choice.
func ChooseProtocol(offered, preferred []string) (name string, ok bool) {
	for _, p := range preferred {
		for _, o := range offered {
			if o == p {
				return p, true
			}
		}
	}
	return "", false
}

// Known reports whether a client understands a server's protocol choice.
func Known(name string, supported []string) bool {
	for _, s := range supported {
		if s == name {
			return true
		}
	}
	return false
}
