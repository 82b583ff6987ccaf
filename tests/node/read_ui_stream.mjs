// Drives Lectern with the real AI SDK (`ai`): its DefaultChatTransport posts the chat and
// parses the UI message stream (every chunk checked against the SDK's own schema), and
// readUIMessageStream turns the chunks into UI message parts. Prints the messages as JSON.
//
// Usage: node read_ui_stream.mjs BASE_URL API_KEY
//   1. "find books about Panem"               -> message A (tool, text, sources)
//   2. "create a list called <name>"          -> message B (tool waiting for approval)
//   3. approve B's action, continuing B       -> message B' (tool output, "Done" text)
//   4. "create a list called <name> too" and reject it, continuing -> message C'

import { DefaultChatTransport, readUIMessageStream } from "ai";

const [base, key] = process.argv.slice(2);

function transport(path, body) {
  return new DefaultChatTransport({
    api: `${base}${path}`,
    headers: { Authorization: `Bearer ${key}` },
    // Lectern's body: the last user message's text (an AI SDK front-end sets this once).
    prepareSendMessagesRequest: ({ messages }) => {
      const last = messages[messages.length - 1];
      const text = last.parts.filter((p) => p.type === "text").map((p) => p.text).join("");
      return { body: body ?? { message: text } };
    },
  });
}

async function turn(path, text, { previous, body } = {}) {
  const user = { id: `user-${Date.now()}`, role: "user", parts: [{ type: "text", text }] };
  const stream = await transport(path, body).sendMessages({
    chatId: "lectern-node-check",
    messages: [...(previous ? [previous] : []), user],
    trigger: "submit-message",
    messageId: undefined,
    abortSignal: undefined,
  });
  let last = previous;
  for await (const message of readUIMessageStream({
    stream, message: previous, terminateOnError: true,
  })) {
    last = message;
  }
  return last;
}

const chat = "/assistant/chat?protocol=ui-message-stream";
const decide = (id, verdict) => `/assistant/actions/${id}/${verdict}?protocol=ui-message-stream`;
const approvalOf = (message) => message.parts.find((p) => p.state === "approval-requested");

const found = await turn(chat, "find books about Panem");
const proposed = await turn(chat, "create a list called Node Check");
const waiting = approvalOf(proposed);
const approved = await turn(decide(waiting.approval.id, "approve"), "", {
  previous: structuredClone(proposed), body: {},
});
const second = await turn(chat, "create a list called Node Refused");
const rejected = await turn(decide(approvalOf(second).approval.id, "reject"), "", {
  previous: structuredClone(second), body: {},
});
process.stdout.write(JSON.stringify({ found, proposed, approved, rejected }));
