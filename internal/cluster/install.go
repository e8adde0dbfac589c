package cluster

import (
	"bytes"
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"syscall"
)

// DefaultKafkaVersion is the Apache Kafka version kbench runs when none is asked for.
const DefaultKafkaVersion = "4.4.0"

// minJavaMajor is the oldest Java that Kafka 4 brokers run on.
const minJavaMajor = 17

//go:embed pom.xml
var pomXML []byte

// Kafka is an installation of Apache Kafka's jars: the fetched cache or KAFKA_HOME's libs/.
type Kafka struct {
	// Version is the Kafka version of the jars (from kafka-clients-<version>.jar).
	Version string
	// Libs is the directory holding the jars.
	Libs string
	// JMXAgent is the Prometheus JMX exporter java agent jar, or "" when the installation
	// has none (then brokers run without it and only /proc metrics are available).
	JMXAgent string
	// Java is the java executable used to run brokers and tools.
	Java string
}

// CacheDir returns kbench's cache directory: $KBENCH_CACHE, else ~/.cache/kbench.
func CacheDir() (string, error) {
	if dir := os.Getenv("KBENCH_CACHE"); dir != "" {
		return dir, nil
	}
	base, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find the cache directory (set KBENCH_CACHE): %w", err)
	}
	return filepath.Join(base, "kbench"), nil
}

// Install returns the Kafka jars of version, fetching them through Maven into the cache on
// first use (with a message on log), or KAFKA_HOME's libs/ when that is set.
func Install(ctx context.Context, version string, log io.Writer) (*Kafka, error) {
	if log == nil {
		log = io.Discard
	}
	java, err := findJava(ctx)
	if err != nil {
		return nil, err
	}
	if home := os.Getenv("KAFKA_HOME"); home != "" {
		return fromKafkaHome(home, java)
	}
	if version == "" {
		version = DefaultKafkaVersion
	}
	if !regexp.MustCompile(`^\d+\.\d+\.\d+$`).MatchString(version) {
		return nil, fmt.Errorf("kafka version %q: want MAJOR.MINOR.PATCH, e.g. %s", version, DefaultKafkaVersion)
	}
	cache, err := CacheDir()
	if err != nil {
		return nil, err
	}
	dir := filepath.Join(cache, "kafka-"+version)
	libs := filepath.Join(dir, "libs")
	if _, err := os.Stat(filepath.Join(dir, "complete")); err != nil {
		if err := fetchOnce(ctx, dir, version, log); err != nil {
			return nil, err
		}
	}
	return &Kafka{Version: version, Libs: libs, JMXAgent: findJMXAgent(libs), Java: java}, nil
}

func fromKafkaHome(home, java string) (*Kafka, error) {
	libs := filepath.Join(home, "libs")
	jars, _ := filepath.Glob(filepath.Join(libs, "kafka-clients-*.jar"))
	if len(jars) == 0 {
		return nil, fmt.Errorf("KAFKA_HOME=%s: no libs/kafka-clients-*.jar there; point it at an Apache Kafka installation or unset it", home)
	}
	version := strings.TrimSuffix(strings.TrimPrefix(filepath.Base(jars[0]), "kafka-clients-"), ".jar")
	agent := findJMXAgent(libs)
	if agent == "" {
		// The exporter is not part of Kafka's distribution; use the cached one if any.
		if cache, err := CacheDir(); err == nil {
			found, _ := filepath.Glob(filepath.Join(cache, "kafka-*", "libs", "jmx_prometheus_javaagent-*.jar"))
			if len(found) > 0 {
				agent = found[0]
			}
		}
	}
	return &Kafka{Version: version, Libs: libs, JMXAgent: agent, Java: java}, nil
}

func findJMXAgent(libs string) string {
	found, _ := filepath.Glob(filepath.Join(libs, "jmx_prometheus_javaagent-*.jar"))
	if len(found) == 0 {
		return ""
	}
	return found[0]
}

// fetchOnce fetches the jars unless another kbench process did so while this one waited for
// the lock: test packages start clusters in parallel, and a second fetch would replace jars
// under a running broker.
func fetchOnce(ctx context.Context, dir, version string, log io.Writer) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create jar cache: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return fmt.Errorf("lock jar cache: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return fmt.Errorf("lock jar cache: %w", err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if _, err := os.Stat(filepath.Join(dir, "complete")); err == nil {
		return nil
	}
	fmt.Fprintf(log, "fetching Apache Kafka %s jars through Maven into %s (once)\n", version, dir)
	return fetchJars(ctx, dir, version)
}

// fetchJars runs Maven on the embedded pom.xml into dir/libs, atomically: a failed or
// interrupted fetch leaves no half-filled directory that a later run would trust.
func fetchJars(ctx context.Context, dir, version string) error {
	mvn, err := exec.LookPath("mvn")
	if err != nil {
		return errors.New("maven (mvn) not found: install it (e.g. apt-get install maven) or set KAFKA_HOME to an Apache Kafka installation")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("create jar cache: %w", err)
	}
	work, err := os.MkdirTemp(dir, "fetch-")
	if err != nil {
		return fmt.Errorf("create jar cache: %w", err)
	}
	defer os.RemoveAll(work)
	pom := filepath.Join(work, "pom.xml")
	if err := os.WriteFile(pom, pomXML, 0o644); err != nil {
		return fmt.Errorf("write pom.xml: %w", err)
	}
	out := filepath.Join(work, "libs")
	cmd := exec.CommandContext(ctx, mvn, "-q", "-B", "-f", pom, "dependency:copy-dependencies",
		"-DincludeScope=runtime", "-DoutputDirectory="+out, "-Dkafka.version="+version)
	var buf bytes.Buffer
	cmd.Stdout, cmd.Stderr = &buf, &buf
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("fetch Kafka %s jars with Maven (is %s published on Maven Central?): %s",
			version, version, mavenError(buf.String(), err))
	}
	libs := filepath.Join(dir, "libs")
	_ = os.RemoveAll(libs) // left by an earlier interrupted fetch; "complete" was never written
	if err := os.Rename(out, libs); err != nil {
		return fmt.Errorf("install jars: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, "complete"), []byte(version+"\n"), 0o644)
}

// findJava returns the java executable ($JAVA_HOME/bin/java, else java on PATH) after checking
// that it is at least Java 17.
func findJava(ctx context.Context) (string, error) {
	java := "java"
	if home := os.Getenv("JAVA_HOME"); home != "" {
		java = filepath.Join(home, "bin", "java")
	}
	path, err := exec.LookPath(java)
	if err != nil {
		return "", fmt.Errorf("java not found: install Java %d or newer (e.g. apt-get install openjdk-17-jre-headless) or set JAVA_HOME", minJavaMajor)
	}
	out, err := exec.CommandContext(ctx, path, "-version").CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("run %s -version: %w", path, err)
	}
	major, err := javaMajor(string(out))
	if err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	if major < minJavaMajor {
		return "", fmt.Errorf("%s is Java %d; Kafka needs Java %d or newer (set JAVA_HOME to a newer one)", path, major, minJavaMajor)
	}
	return path, nil
}

// javaMajor reads the major version from `java -version` output: "1.8.0_292" is 8,
// "17.0.15" is 17.
func javaMajor(versionOutput string) (int, error) {
	m := regexp.MustCompile(`version "(\d+)(?:\.(\d+))?`).FindStringSubmatch(versionOutput)
	if m == nil {
		return 0, fmt.Errorf("cannot read the Java version from %q", firstLine(versionOutput))
	}
	major, _ := strconv.Atoi(m[1])
	if major == 1 && m[2] != "" {
		major, _ = strconv.Atoi(m[2])
	}
	return major, nil
}

// Classpath is the java class path of the installation's jars (the java agent excluded).
func (k *Kafka) Classpath() string {
	jars, _ := filepath.Glob(filepath.Join(k.Libs, "*.jar"))
	kept := jars[:0]
	for _, j := range jars {
		if j != k.JMXAgent {
			kept = append(kept, j)
		}
	}
	return strings.Join(kept, string(os.PathListSeparator))
}

// Command returns a command that runs mainClass from the installation's jars, such as
// org.apache.kafka.tools.ProducerPerformance.
func (k *Kafka) Command(ctx context.Context, mainClass string, args ...string) *exec.Cmd {
	full := append([]string{"-cp", k.Classpath(), mainClass}, args...)
	return exec.CommandContext(ctx, k.Java, full...)
}

// mavenError picks the first [ERROR] line of Maven's output, without colour codes or the
// project boilerplate, so the user sees the cause in one line.
func mavenError(output string, runErr error) string {
	ansi := regexp.MustCompile(`\x1b\[[0-9;]*m`)
	for _, line := range strings.Split(ansi.ReplaceAllString(output, ""), "\n") {
		if msg, ok := strings.CutPrefix(strings.TrimSpace(line), "[ERROR] "); ok && msg != "" {
			if _, rest, found := strings.Cut(msg, "kbench-kafka:pom:1: "); found {
				msg = rest
			}
			return strings.TrimSuffix(msg, " -> [Help 1]")
		}
	}
	return runErr.Error()
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}
