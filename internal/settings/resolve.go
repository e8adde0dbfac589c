package settings

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// Resolved is a set of properties after the Java client's rules: what the engine applies.
type Resolved struct {
	Role Role
	// Values maps every applied property to its value in force, the Java defaults included.
	// Properties the engine does not apply (Ignored) are never in it. It is what kbench
	// records with every result (secrets still in clear; the caller hides them).
	Values map[string]string
	// Explicit are the properties the caller set, as given.
	Explicit map[string]string
	// Warnings name properties that were accepted but not applied, and settings changed to
	// follow a rule (idempotence turned off), so the user sees what happened.
	Warnings []string
}

// Int returns the value in force of a numeric property (0 when it has none).
func (r *Resolved) Int(name string) int64 {
	n, _ := strconv.ParseInt(r.Values[name], 10, 64)
	return n
}

// Bool returns the value in force of a boolean property.
func (r *Resolved) Bool(name string) bool { return r.Values[name] == "true" }

// Set reports whether the caller set name explicitly.
func (r *Resolved) Set(name string) bool { _, ok := r.Explicit[name]; return ok }

// byteArraySerdes are the (de)serializers kbench behaves as anyway: accepted silently, since
// config files written for Kafka's tools often carry them.
var byteArraySerdes = map[string]bool{
	"org.apache.kafka.common.serialization.ByteArraySerializer":   true,
	"org.apache.kafka.common.serialization.ByteArrayDeserializer": true,
}

// Resolve checks props (Java names) for a client of role (Producer or Consumer) and applies
// the rules that tie properties together, as the Java client does when it builds its
// config. An unknown property or a value out of range is an error naming the valid values;
// a combination kbench cannot honour is an error saying why. The error is an *Error when
// one property is to blame.
func Resolve(role Role, props map[string]string) (*Resolved, error) {
	r := &Resolved{Role: role, Values: map[string]string{}, Explicit: map[string]string{}}
	for _, p := range catalogue {
		if p.For(role) && p.Applies != "" && p.Default != "" {
			r.Values[p.Name] = p.Default
		}
	}
	names := make([]string, 0, len(props))
	for k := range props {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		v := props[k]
		r.Explicit[k] = v
		p, ok := Lookup(role, k)
		if !ok {
			return nil, errorf(k, "unknown %s property %q; supported: %s", role, k, strings.Join(Names(role, nil), ", "))
		}
		if p.Ignored != "" {
			v = strings.TrimSpace(v)
			switch {
			case byteArraySerdes[v]:
			case p.Secret:
				r.Warnings = append(r.Warnings, fmt.Sprintf("%s ignored: %s", k, p.Ignored))
			default:
				r.Warnings = append(r.Warnings, fmt.Sprintf("%s=%s ignored: %s", k, v, p.Ignored))
			}
			continue
		}
		nv, err := p.Check(v)
		if err != nil {
			return nil, err
		}
		r.Values[k] = nv
	}
	if err := r.requirements(); err != nil {
		return nil, err
	}
	var err error
	if role == Producer {
		err = r.producer()
	} else {
		err = r.consumer()
	}
	if err != nil {
		return nil, err
	}
	return r, nil
}

// producer applies the Java producer's cross-property rules.
func (r *Resolved) producer() error {
	if err := r.idempotence(); err != nil {
		return err
	}
	if err := r.transactions(); err != nil {
		return err
	}
	// Java: delivery.timeout.ms must cover linger.ms + request.timeout.ms. Set explicitly, a
	// shorter one is an error; left at its default, it is raised to the sum.
	linger, req, delivery := r.Int("linger.ms"), r.Int("request.timeout.ms"), r.Int("delivery.timeout.ms")
	if delivery < linger+req {
		if r.Set("delivery.timeout.ms") {
			return errorf("delivery.timeout.ms", "delivery.timeout.ms=%d is shorter than linger.ms + request.timeout.ms = %d, as the Java client requires", delivery, linger+req)
		}
		r.Values["delivery.timeout.ms"] = strconv.FormatInt(linger+req, 10)
	}
	// Java sends a batch larger than max.request.size alone in a request; franz-go cannot
	// build a batch larger than a request. A batch.size set so is an error; the default one
	// is lowered to the request size, and recorded so.
	if b, m := r.Int("batch.size"), r.Int("max.request.size"); b > m {
		if r.Set("batch.size") {
			return errorf("batch.size", "batch.size=%d is larger than max.request.size=%d: franz-go cannot build a batch larger than a request", b, m)
		}
		r.Values["batch.size"] = strconv.FormatInt(m, 10)
		r.Warnings = append(r.Warnings, fmt.Sprintf("batch.size lowered to max.request.size=%d: franz-go cannot build a batch larger than a request", m))
	}
	return nil
}

// transactions applies the rules of transactional.id: a transactional producer needs
// idempotence, and transaction.timeout.ms is in force only in one (the Java producer sends
// it with InitProducerId alone), so a non-transactional producer does not record it.
func (r *Resolved) transactions() error {
	id := r.Values["transactional.id"]
	if id != "" && !r.Bool("enable.idempotence") {
		return errorf("transactional.id", "transactional.id=%s needs idempotence (acks=all, retries > 0)", id)
	}
	if id == "" {
		if r.Set("transaction.timeout.ms") {
			r.Warnings = append(r.Warnings, fmt.Sprintf("transaction.timeout.ms=%s ignored: the producer is not transactional", r.Explicit["transaction.timeout.ms"]))
		}
		delete(r.Values, "transaction.timeout.ms")
	}
	return nil
}

// idempotence settles enable.idempotence. The Java client (3.2+) turns default idempotence
// off when acks, retries or max.in.flight.requests.per.connection conflict with it, and
// refuses the conflict when idempotence was asked for explicitly. franz-go adds one
// conflict of its own: with idempotence it always allows 5 produce requests in flight per
// broker, so a lower max.in.flight.requests.per.connection can only be honoured without it.
func (r *Resolved) idempotence() error {
	if !r.Bool("enable.idempotence") {
		return nil
	}
	acks, inFlight := r.Values["acks"], r.Int("max.in.flight.requests.per.connection")
	var conflict, because string
	switch {
	case acks != "all" && acks != "-1":
		conflict, because = "acks", "idempotence needs acks=all"
	case r.Int("retries") == 0:
		conflict, because = "retries", "idempotence needs retries > 0"
	case inFlight > 5:
		conflict, because = "max.in.flight.requests.per.connection", "idempotence allows at most 5 requests in flight"
	case inFlight < 5:
		conflict, because = "max.in.flight.requests.per.connection",
			"franz-go keeps 5 produce requests in flight per broker with idempotence, so fewer in flight needs enable.idempotence=false"
	}
	if conflict == "" {
		return nil
	}
	setting := conflict + "=" + r.Values[conflict]
	if r.Set("enable.idempotence") {
		return errorf(conflict, "enable.idempotence=true cannot be honoured with %s: %s", setting, because)
	}
	r.Values["enable.idempotence"] = "false"
	if conflict == "max.in.flight.requests.per.connection" && inFlight < 5 {
		// The Java client would keep idempotence here; say that this one did not.
		r.Warnings = append(r.Warnings, fmt.Sprintf("enable.idempotence=false so that %s is honoured: %s", setting, because))
	}
	return nil
}

// consumer applies the consumer's cross-property rules.
func (r *Resolved) consumer() error {
	if err := r.groupProtocol(); err != nil {
		return err
	}
	// Under the consumer protocol neither is in force (groupProtocol removed them).
	if hb, st := r.Int("heartbeat.interval.ms"), r.Int("session.timeout.ms"); st > 0 && hb >= st {
		return errorf("heartbeat.interval.ms", "heartbeat.interval.ms=%d must be lower than session.timeout.ms=%d", hb, st)
	}
	// A consumer's request timeout is franz-go's request timeout overhead, which it bounds.
	if rt := r.Int("request.timeout.ms"); rt > 900000 {
		return errorf("request.timeout.ms", "request.timeout.ms=%d is above franz-go's limit of 900000 for a consumer", rt)
	}
	return nil
}
