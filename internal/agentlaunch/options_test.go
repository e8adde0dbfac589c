package agentlaunch

import (
	"io"
	"strings"
	"testing"
)

func TestOptionsRejected(t *testing.T) {
	k8s := func(f func(*Options)) Options {
		o := Options{Agents: 2, Image: "kbench:dev", Bootstrap: "b:9092"}
		f(&o)
		return o
	}
	sd := func(f func(*Options)) Options {
		o := Options{Format: Systemd, Bootstrap: "b:9092"}
		f(&o)
		return o
	}
	for _, tc := range []struct {
		name string
		o    Options
		want string // part of the one-line error
	}{
		{"no bootstrap", k8s(func(o *Options) { o.Bootstrap = "" }), "--bootstrap-server is required"},
		{"bootstrap without port", k8s(func(o *Options) { o.Bootstrap = "b:9092,c" }), `"c" is not host:port`},
		{"bootstrap with a space", k8s(func(o *Options) { o.Bootstrap = "b:9092 c:9092" }), "without spaces"},
		{"zero agents", k8s(func(o *Options) { o.Agents = 0 }), "--agents is required"},
		{"too many agents", k8s(func(o *Options) { o.Agents = 1001 }), "--agents 1001: want 1 to 1000"},
		{"no image", k8s(func(o *Options) { o.Image = "" }), "--image"},
		{"upper-case secret", k8s(func(o *Options) { o.Secret = "Client" }), "--command-config-secret"},
		{"namespace with dot", k8s(func(o *Options) { o.Namespace = "a.b" }), "--namespace"},
		{"job name too long", k8s(func(o *Options) { o.JobName = strings.Repeat("a", 53) }), "--job-name"},
		{"cpu not a quantity", k8s(func(o *Options) { o.CPU = "one" }), "--cpu"},
		{"memory not a quantity", k8s(func(o *Options) { o.Memory = "512MB" }), "--memory"},
		{"file on kubernetes", k8s(func(o *Options) { o.CommandConfig = "/etc/c.properties" }), "--command-config applies to --format systemd"},
		{"binary on kubernetes", k8s(func(o *Options) { o.Binary = "/usr/bin/kbench" }), "--binary applies to --format systemd only"},
		{"unknown format", k8s(func(o *Options) { o.Format = "nomad" }), `--format "nomad": want kubernetes or systemd`},
		{"image on systemd", sd(func(o *Options) { o.Image = "kbench:dev" }), "--image applies to --format kubernetes only"},
		{"secret on systemd", sd(func(o *Options) { o.Secret = "kbench-client" }), "with systemd pass the file as --command-config"},
		{"cpu on systemd", sd(func(o *Options) { o.CPU = "2" }), "--cpu applies to --format kubernetes only"},
		{"relative config", sd(func(o *Options) { o.CommandConfig = "client.properties" }), "--command-config"},
		{"specifier in config", sd(func(o *Options) { o.CommandConfig = "/etc/%i.properties" }), "--command-config"},
		{"relative binary", sd(func(o *Options) { o.Binary = "kbench" }), "--binary"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := Write(io.Discard, tc.o)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("err = %v, want one containing %q", err, tc.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
		})
	}
}
