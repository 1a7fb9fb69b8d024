// Command go-advisor is a peer agent for the delegation tests, on a2a-go v0.3.3 (the Go SDK of
// the A2A project, A2A protocol 0.3): an upgrade advisor over JSON-RPC with streaming and push
// notifications sent by the SDK's own HTTP sender. It binds HOST on a free port and prints its
// base URL as the first line on stdout; it stops on SIGTERM or when stdin closes (so it never
// outlives the test process that started it).
//
//	go-advisor [-host 127.0.0.1] [-work-delay-ms 300] [-chunk-delay-ms 150]
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/a2aproject/a2a-go/a2a"
	"github.com/a2aproject/a2a-go/a2asrv"
	"github.com/a2aproject/a2a-go/a2asrv/push"
)

const jsonrpcPath = "/a2a/jsonrpc"

func card(baseURL string) *a2a.AgentCard {
	modesIn, modesOut := []string{"text/plain", "application/json"}, []string{"text/markdown", "application/json"}
	return &a2a.AgentCard{
		Name:               "Upgrade Advisor (Go a2a-go)",
		Description:        "Checks a package.json against a target Node.js version and streams a risk-rated report; asks for the target version when the request does not name it.",
		URL:                baseURL + jsonrpcPath,
		PreferredTransport: a2a.TransportProtocolJSONRPC,
		ProtocolVersion:    "0.3.0",
		Version:            "1.0.0",
		Provider:           &a2a.AgentProvider{Org: "a2a-temporal test peers", URL: baseURL},
		Capabilities:       a2a.AgentCapabilities{Streaming: true, PushNotifications: true},
		DefaultInputModes:  modesIn,
		DefaultOutputModes: modesOut,
		Skills: []a2a.AgentSkill{{
			ID:          "node-upgrade-advice",
			Name:        "Node.js upgrade advice",
			Description: "Send a request and a package.json as a data part; get a markdown report and JSON findings. A follow-up that references the task can ask to sort the fix suggestions by risk.",
			Tags:        []string{"dependencies", "node.js", "upgrade"},
			Examples:    []string{"Check payment-service for Node.js 24", "Sort the fix suggestions by risk"},
			InputModes:  modesIn,
			OutputModes: modesOut,
		}},
	}
}

// loopbackOnlyStore refuses push configs whose URL is not on loopback: this test agent calls
// back to the test's own receiver and nowhere else.
type loopbackOnlyStore struct{ *push.InMemoryPushConfigStore }

func (s loopbackOnlyStore) Save(ctx context.Context, taskID a2a.TaskID, config *a2a.PushConfig) (*a2a.PushConfig, error) {
	parsed, err := url.Parse(config.URL)
	if err != nil || (parsed.Scheme != "http" && parsed.Scheme != "https") {
		return nil, fmt.Errorf("push URL must be http(s): %w", a2a.ErrInvalidParams)
	}
	if ip := net.ParseIP(parsed.Hostname()); parsed.Hostname() != "localhost" && (ip == nil || !ip.IsLoopback()) {
		return nil, fmt.Errorf("this agent pushes to loopback URLs only: %w", a2a.ErrInvalidParams)
	}
	return s.InMemoryPushConfigStore.Save(ctx, taskID, config)
}

func main() {
	host := flag.String("host", "127.0.0.1", "interface to bind (a free port is picked)")
	workDelay := flag.Float64("work-delay-ms", 300, "simulated work before the report streams")
	chunkDelay := flag.Float64("chunk-delay-ms", 150, "pause between report chunks")
	flag.Parse()

	logger := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	listener, err := net.Listen("tcp", net.JoinHostPort(*host, "0"))
	if err != nil {
		fmt.Fprintf(os.Stderr, "go-advisor cannot listen on %s: %v\n", *host, err)
		os.Exit(1)
	}
	baseURL := "http://" + listener.Addr().String()

	executor := newAdvisorExecutor(switches{
		workDelay:  time.Duration(*workDelay * float64(time.Millisecond)),
		chunkDelay: time.Duration(*chunkDelay * float64(time.Millisecond)),
	})
	handler := a2asrv.NewHandler(executor,
		a2asrv.WithLogger(logger),
		a2asrv.WithPushNotifications(loopbackOnlyStore{push.NewInMemoryStore()}, push.NewHTTPPushSender(&push.HTTPSenderConfig{Timeout: 10 * time.Second})),
	)
	mux := http.NewServeMux()
	mux.Handle(jsonrpcPath, a2asrv.NewJSONRPCHandler(handler))
	mux.Handle(a2asrv.WellKnownAgentCardPath, a2asrv.NewStaticAgentCardHandler(card(baseURL)))
	server := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}

	stop := make(chan struct{}, 2)
	go func() {
		_, _ = io.Copy(io.Discard, os.Stdin)
		stop <- struct{}{}
	}()
	go func() {
		signals := make(chan os.Signal, 1)
		signal.Notify(signals, syscall.SIGTERM, syscall.SIGINT)
		<-signals
		stop <- struct{}{}
	}()
	go func() {
		<-stop
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		_ = server.Shutdown(ctx) // open SSE streams end with the process
		os.Exit(0)
	}()

	fmt.Println(baseURL)
	if err := server.Serve(listener); err != nil && err != http.ErrServerClosed {
		fmt.Fprintf(os.Stderr, "go-advisor stopped: %v\n", err)
		os.Exit(1)
	}
}
