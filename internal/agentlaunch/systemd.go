package agentlaunch

import (
	"fmt"
	"io"
	"strings"
)

// UnitName is the systemd template unit's file name; an instance's name (after the @) is
// the agent's name.
const UnitName = "kbench-agent@.service"

// writeSystemd writes the template unit. Every value in it was checked by validate to hold
// no space, quote, % or $, so none changes how systemd splits or expands ExecStart.
func writeSystemd(w io.Writer, o Options) error {
	argv := []string{o.Binary, "agent", "--bootstrap-server", o.Bootstrap, "--name", "%i"}
	var credential string
	if o.CommandConfig != "" {
		// systemd reads the file (it may stay root-only) and hands the service a private
		// copy in its credentials directory, %d: the dynamic user never sees the original.
		argv = append(argv, "--command-config", "%d/"+SecretKey)
		credential = fmt.Sprintf("LoadCredential=%s:%s\n", SecretKey, o.CommandConfig)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: one kbench agent per instance, named by the instance (systemd 249 or later).\n", UnitName)
	fmt.Fprintf(&b, "# Install it as /etc/systemd/system/%s on each agent host, run systemctl daemon-reload,\n", UnitName)
	if o.Agents > 0 {
		fmt.Fprintf(&b, "# then start %d agents in all, each with a name of its own, e.g. on host i:\n", o.Agents)
	} else {
		b.WriteString("# then start each agent with a name of its own, e.g. on host i:\n")
	}
	b.WriteString("#   systemctl start kbench-agent@agent-i\n")
	if o.CommandConfig != "" {
		fmt.Fprintf(&b, "# %s holds passwords: keep it root-only (chmod 600).\n", o.CommandConfig)
	}
	b.WriteString(`[Unit]
Description=kbench agent %i
Wants=network-online.target
After=network-online.target

[Service]
Type=exec
`)
	fmt.Fprintf(&b, "ExecStart=%s\n", strings.Join(argv, " "))
	b.WriteString(credential)
	b.WriteString(`# A restarted agent cannot rejoin a run in progress: a failed agent stays failed and the
# coordinator reports it by name.
Restart=no
# kbench exits with 130 when stopped (SIGTERM from systemctl stop): how an agent ends.
SuccessExitStatus=130
# The agent needs no privilege: an unprivileged user made for the service, a private
# directory of its own, a read-only system.
DynamicUser=yes
StateDirectory=kbench-agent/%i
WorkingDirectory=%S/kbench-agent/%i
NoNewPrivileges=yes
ProtectSystem=strict
ProtectHome=yes
PrivateTmp=yes

[Install]
WantedBy=multi-user.target
`)
	_, err := io.WriteString(w, b.String())
	return err
}
