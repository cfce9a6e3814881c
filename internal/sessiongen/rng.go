package sessiongen

import "math/bits"

// rng is a small wyrand generator. It is defined here rather than taken from
// math/rand/v2 because the bytes of a generated session must stay identical
// across Go releases, and the derived methods of rand.Rand carry no such
// promise.
type rng struct{ s uint64 }

func newRNG(seed int64) rng {
	r := rng{s: uint64(seed) ^ 0x6a09e667f3bcc908}
	r.u64() // decorrelate neighbouring seeds
	return r
}

func (r *rng) u64() uint64 {
	r.s += 0xa0761d6478bd642f
	hi, lo := bits.Mul64(r.s, r.s^0xe7037ed1a0b428db)
	return hi ^ lo
}

// intn returns a value in [0, n). Lemire's multiply-shift; its bias is below
// 2^-40 for the small n used here, which does not matter for test data.
func (r *rng) intn(n int) int {
	if n <= 1 {
		return 0
	}
	hi, _ := bits.Mul64(r.u64(), uint64(n))
	return int(hi)
}

// between returns a value in [lo, hi].
func (r *rng) between(lo, hi int) int {
	if hi <= lo {
		return lo
	}
	return lo + r.intn(hi-lo+1)
}

// skewed returns a value in [lo, hi] biased towards lo: many small outputs and
// a long tail of big ones, the way tool output sizes are distributed.
func (r *rng) skewed(lo, hi int) int {
	f := r.float()
	return lo + int(f*f*float64(hi-lo))
}

// pct reports true with probability p/100.
func (r *rng) pct(p int) bool { return r.intn(100) < p }

func (r *rng) float() float64 { return float64(r.u64()>>11) / (1 << 53) }

func pick[T any](r *rng, xs []T) T { return xs[r.intn(len(xs))] }

// weighted returns an index into w chosen with probability w[i]/sum(w).
func (r *rng) weighted(w []int) int {
	t := 0
	for _, x := range w {
		t += x
	}
	n := r.intn(t)
	for i, x := range w {
		if n < x {
			return i
		}
		n -= x
	}
	return len(w) - 1
}
