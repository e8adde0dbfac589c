package report

import "fmt"

// section is one numbered heading of the report. The list, its order and its numbers live
// here only: the Markdown writer and the HTML template both ask for a heading by key, and a
// section the run has nothing for (no capacity search, no agents) is left out and the
// numbers after it close up.
type section struct {
	key, title string
	sub        bool // a subsection (### / h3)
}

// sections lists the model's sections in order.
func (m *Model) sections() []section {
	list := []section{
		{key: "scenarios", title: "Test scenarios"},
		{key: "environment", title: "Test environment"},
		{key: "procedure", title: "Test procedure"},
		{key: "results", title: "Test results"},
		{key: "throughput", title: "Throughput and CPU", sub: true},
		{key: "latency", title: "Latency", sub: true},
	}
	if hasRecords(m) {
		list = append(list, section{key: "records", title: "Every record accounted", sub: true})
	}
	if len(m.Capacity) > 0 {
		list = append(list, section{key: "capacity", title: "Capacity", sub: true})
	}
	if len(m.Agents) > 0 {
		list = append(list, section{key: "agents", title: "Load from agents", sub: true})
	}
	if len(m.Durability) > 0 {
		list = append(list, section{key: "durability", title: "Durability", sub: true})
	}
	if len(m.Rebalances) > 0 {
		list = append(list, section{key: "rebalances", title: "Rebalances", sub: true})
	}
	if len(m.CatchUp) > 0 {
		list = append(list, section{key: "catchup", title: "Catch-up reads", sub: true})
	}
	if len(m.Share) > 0 {
		list = append(list, section{key: "share", title: "Share groups", sub: true})
	}
	if len(m.Transactions) > 0 {
		list = append(list, section{key: "transactions", title: "Transactions", sub: true})
	}
	list = append(list,
		section{key: "charts", title: "Charts"},
		section{key: "conclusions", title: "Conclusions"},
		section{key: "effects", title: "Effect of each parameter", sub: true},
		section{key: "limits", title: "What limited each scenario", sub: true},
		section{key: "hypotheses", title: "Hypotheses", sub: true},
	)
	if len(m.References) > 0 || len(m.ReferenceNotes) > 0 {
		list = append(list, section{key: "reference", title: "Beside the source study", sub: true})
	}
	return list
}

// heading is the numbered title of the section key ("4.2 Latency"); it panics on a key
// the list does not hold, which a test of every fixture would catch.
func (m *Model) heading(key string) string {
	top, sub := 0, 0
	for _, s := range m.sections() {
		if s.sub {
			sub++
		} else {
			top, sub = top+1, 0
		}
		if s.key != key {
			continue
		}
		if s.sub {
			return fmt.Sprintf("%d.%d %s", top, sub, s.title)
		}
		return fmt.Sprintf("%d. %s", top, s.title)
	}
	panic("report: no section " + key)
}
