package scenario

import (
	"testing"
)

func TestZZGaveUpAll(t *testing.T) {
	n := 0
	for seed := uint64(100); seed < 300; seed++ {
		r := watchRunVanishing(seed, 16, 2, watchChannels[1])
		n += r.gaveUp
		if r.gaveUp > 0 || r.err != nil {
			t.Log(seed, r.gaveUp, r.err)
		}
	}
	t.Log("total", n)
}
