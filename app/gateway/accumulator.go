package gateway

import "fmt"

// accumulator builds the message a stream delivers, event by event, and
// checks the events come in the Messages API's order. It sits between the
// Upstream and the client, so an out-of-order event from any Upstream is
// refused before it reaches a client SDK (whose own accumulator would fail
// on it), and the usage reported is exactly what the client was told.
type accumulator struct {
	msg     *Message
	open    bool // a content block is started and not yet stopped
	stopped bool // message_stop seen
}

func (a *accumulator) started() bool  { return a.msg != nil }
func (a *accumulator) inBlock() bool  { return a.open }
func (a *accumulator) complete() bool { return a.stopped }

func (a *accumulator) add(ev Event) *Error {
	if a.stopped {
		return outOfOrder("%s after message_stop", ev.Type)
	}
	if a.msg == nil && ev.Type != EventMessageStart {
		return outOfOrder("%s before message_start", ev.Type)
	}
	switch ev.Type {
	case EventMessageStart:
		if a.msg != nil {
			return outOfOrder("a second message_start")
		}
		if ev.Message == nil {
			return outOfOrder("message_start without a message")
		}
		m := *ev.Message
		m.Content = nil // the skeleton's content is always empty; blocks follow
		a.msg = &m
	case EventContentBlockStart:
		if a.open || ev.Index != len(a.msg.Content) {
			return outOfOrder("content_block_start for index %d", ev.Index)
		}
		block := ContentBlock{Type: "text"}
		if ev.Block != nil {
			block = *ev.Block
		}
		if block.Type != "text" {
			return errUnsupportedBlock(block.Type)
		}
		a.msg.Content = append(a.msg.Content, block)
		a.open = true
	case EventContentBlockDelta:
		if !a.open || ev.Index != len(a.msg.Content)-1 {
			return outOfOrder("content_block_delta for index %d", ev.Index)
		}
		a.msg.Content[ev.Index].Text += ev.Text
	case EventContentBlockStop:
		if !a.open || ev.Index != len(a.msg.Content)-1 {
			return outOfOrder("content_block_stop for index %d", ev.Index)
		}
		a.open = false
	case EventMessageDelta:
		if a.open {
			return outOfOrder("message_delta inside a content block")
		}
		a.msg.StopReason, a.msg.StopSequence = ev.StopReason, ev.StopSequence
		if ev.Usage != nil {
			// Cumulative counts; input_tokens only when this event has it.
			a.msg.Usage.OutputTokens = ev.Usage.OutputTokens
			if ev.Usage.InputTokens > 0 {
				a.msg.Usage.InputTokens = ev.Usage.InputTokens
			}
		}
	case EventMessageStop:
		if a.open {
			return outOfOrder("message_stop inside a content block")
		}
		a.stopped = true
	case EventPing:
	default:
		// error events included: an Upstream returns its error instead.
		return outOfOrder("unexpected %q event", ev.Type)
	}
	return nil
}

func outOfOrder(format string, args ...any) *Error {
	return errInvalidResponse(fmt.Errorf("stream out of order: "+format, args...))
}
