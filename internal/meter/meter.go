// Package meter bounds the stretches of work a call does between two looks
// at its deadline and budget.
//
// Compiled wasm cannot be preempted: a module that computes for a second
// without a host call holds its host for that second (wazero's host process
// cannot even stop the world for its garbage collector meanwhile). So every
// loop whose length depends on a pattern, a file or a directory charges its
// work here, in units of roughly one byte scanned, and every Interval units
// the meter calls its check, which reads the clock: a host call, and the
// moment a deadline is noticed.
//
// Interval is set so that a stretch between two checks stays near 1 ms in
// wazero on the machines we measure on (a byte scanned by the lazy DFA costs
// about 3–5 ns there, a state computed about 100 ns per instruction), well
// under the 10 ms the design allows; a check costs well under a microsecond.
package meter

// Interval is how many units pass between two checks.
const Interval = 1 << 16

// Meter counts units of work and checks a call's limits every Interval
// units. The first error a check returns sticks: every later Spend returns
// it at once, so code that cannot return an error (a glob matched inside a
// walk) may stop early and let its caller find the error. A nil *Meter never
// checks.
type Meter struct {
	left  int
	check func() error
	err   error
}

// New returns a meter that calls check every Interval units.
func New(check func() error) *Meter { return &Meter{left: Interval, check: check} }

// Spend charges n units and runs the check when Interval units have passed
// since the last one.
func (m *Meter) Spend(n int) error {
	if m == nil {
		return nil
	}
	if m.err != nil {
		return m.err
	}
	m.left -= n
	if m.left > 0 {
		return nil
	}
	return m.Check()
}

// Check runs the check now and starts a new interval.
func (m *Meter) Check() error {
	if m == nil {
		return nil
	}
	if m.err != nil {
		return m.err
	}
	m.left = Interval
	if m.check != nil {
		m.err = m.check()
	}
	return m.err
}

// Err returns the error a check returned, if any.
func (m *Meter) Err() error {
	if m == nil {
		return nil
	}
	return m.err
}
