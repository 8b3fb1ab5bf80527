package scenario

import "sync"

// inParallel calls run(i) for every i in [0, n) on two workers, one per
// core of the machines the suite runs on, and returns when all are done.
// Each run is a whole seeded game: they share nothing.
func inParallel(n int, run func(i int)) {
	var wg sync.WaitGroup
	next := make(chan int)
	for range 2 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				run(i)
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
}
