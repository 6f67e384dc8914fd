// Package mail sends the few messages Parapet sends by email (notices of
// credential changes, invitations). With SMTP_URL set they go through that
// server; without it they are written to the server log, so development
// and tests need no mail server and nothing is silently dropped.
package mail

import (
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/smtp"
	"net/url"
	"strings"
	"time"
)

// Message is one plain-text email.
type Message struct {
	To      string
	Subject string
	Body    string
}

// Mailer sends messages.
type Mailer interface {
	Send(ctx context.Context, m Message) error
}

// New returns the mailer for smtpURL: smtp://user:pass@host:port?from=addr
// (smtps:// for implicit TLS is not supported; STARTTLS is used when the
// server offers it), or, when smtpURL is empty, one that logs each message:
// whole in development, without its body in production, where the log is
// read by more people than the addressee and an invitation's body is a
// link that admits to an organization (the console shows it to the
// inviter, who can send it themselves).
func New(smtpURL string, log *slog.Logger, production bool) (Mailer, error) {
	if smtpURL == "" {
		return logMailer{log: log, body: !production}, nil
	}
	u, err := url.Parse(smtpURL)
	if err != nil || u.Scheme != "smtp" || u.Host == "" {
		return nil, fmt.Errorf("SMTP_URL must look like smtp://user:password@host:587?from=noreply@example.com")
	}
	from := u.Query().Get("from")
	if from == "" {
		return nil, fmt.Errorf("SMTP_URL needs a from= address, as in smtp://host:587?from=noreply@example.com")
	}
	s := &smtpMailer{addr: u.Host, from: from}
	if _, _, err := net.SplitHostPort(u.Host); err != nil {
		s.addr = net.JoinHostPort(u.Host, "587")
	}
	if u.User != nil {
		pass, _ := u.User.Password()
		host, _, _ := net.SplitHostPort(s.addr)
		s.auth = smtp.PlainAuth("", u.User.Username(), pass, host)
	}
	return s, nil
}

// logMailer writes messages to the log: the development default.
type logMailer struct {
	log  *slog.Logger
	body bool // the body too: not in production
}

func (l logMailer) Send(ctx context.Context, m Message) error {
	body := "(not logged in production: set SMTP_URL to deliver mail)"
	if l.body {
		body = m.Body
	}
	l.log.InfoContext(ctx, "mail (SMTP_URL unset, not sent)", "to", m.To, "subject", m.Subject, "body", body)
	return nil
}

// smtpMailer sends through one SMTP server.
type smtpMailer struct {
	addr string
	from string
	auth smtp.Auth
}

// sendTimeout bounds one delivery so a slow mail server cannot hold a request.
const sendTimeout = 10 * time.Second

func (s *smtpMailer) Send(ctx context.Context, m Message) error {
	for _, v := range []string{m.To, m.Subject} {
		if strings.ContainsAny(v, "\r\n") {
			return fmt.Errorf("mail: header value with a line break")
		}
	}
	msg := "From: " + s.from + "\r\nTo: " + m.To + "\r\nSubject: " + m.Subject +
		"\r\nMIME-Version: 1.0\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n" +
		strings.ReplaceAll(m.Body, "\n", "\r\n")
	done := make(chan error, 1)
	go func() { done <- smtp.SendMail(s.addr, s.auth, s.from, []string{m.To}, []byte(msg)) }()
	ctx, cancel := context.WithTimeout(ctx, sendTimeout)
	defer cancel()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
		return fmt.Errorf("mail: %w", ctx.Err())
	}
}
