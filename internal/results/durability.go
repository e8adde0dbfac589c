package results

// Durability is a scenario's durability check (kbench verify), run after its first repeat
// on a topic of its own with the scenario's topic and producer settings: sequenced records
// while a fault plan ran, a full read-back, and the anomalies named as in Jepsen's analyses.
type Durability struct {
	// Topic, Partitions, Replicas and TopicConfigs are the checked topic; ProducerProps the
	// producers' properties as given (secrets redacted); Rate and DurationS the load.
	Topic        string            `json:"topic"`
	Partitions   int               `json:"partitions"`
	Replicas     int               `json:"replicas"`
	TopicConfigs map[string]string `json:"topic_configs,omitempty"`
	// EffectiveTopicConfigs are min.insync.replicas and unclean.leader.election.enable as
	// the cluster applied them to the checked topic, whether set or the brokers' defaults.
	EffectiveTopicConfigs map[string]string `json:"effective_topic_configs,omitempty"`
	ProducerProps         map[string]string `json:"producer_props,omitempty"`
	Rate                  float64           `json:"rate"`
	DurationS             float64           `json:"duration_s"`
	// Faults is the plan as written; Applied lists the kinds of the faults that ran, in
	// order ("leader-kill"); FaultsNote says why fewer ran than planned, or why none could.
	Faults     string   `json:"faults,omitempty"`
	Applied    []string `json:"applied,omitempty"`
	FaultsNote string   `json:"faults_note,omitempty"`
	// ResumedAfterS is, per fault applied, the seconds until writes resumed (-1: never).
	ResumedAfterS []float64 `json:"resumed_after_s,omitempty"`
	// Every record sent, by outcome, and the records read back.
	Sent         int64 `json:"sent"`
	Acknowledged int64 `json:"acknowledged"`
	Failed       int64 `json:"failed"`
	Unsent       int64 `json:"unsent"`
	ReadBack     int64 `json:"read_back"`
	// The anomalies, as verify.json counts them (embedded: the same JSON fields, flat).
	VerifyCounts
	// Verdict is kbench verify's last line.
	Verdict string `json:"verdict"`
	// Error says why the check could not finish (then the counts are what it had).
	Error string `json:"error,omitempty"`
}
