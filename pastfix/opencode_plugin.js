// pastfix: how a failed command was fixed before, shown to the model beside the failure.
// Written by `pastfix hook install --agent opencode`; `pastfix hook uninstall --agent
// opencode` removes it. opencode runs a plugin's tool.execute.after when a tool returns,
// and what is left in output.output is what the model reads. A bash call that exited
// non-zero returns (metadata.exit); a tool that throws never gets here. Such a call is
// sent to `pastfix hook --agent opencode`, which prints the past fix or nothing; any
// problem (no pastfix, no index, a slow answer) leaves the output as it was.
import { spawn } from "node:child_process"

// [executable..., "hook", "--agent", "opencode", "--db", index]
const COMMAND = __PASTFIX_COMMAND__
const TIMEOUT_MS = 10000

function recall(event) {
  return new Promise((resolve) => {
    let out = ""
    let child
    try {
      child = spawn(COMMAND[0], COMMAND.slice(1), { stdio: ["pipe", "pipe", "ignore"] })
    } catch {
      resolve("")
      return
    }
    const timer = setTimeout(() => {
      child.kill()
      resolve("")
    }, TIMEOUT_MS)
    child.on("error", () => {
      clearTimeout(timer)
      resolve("")
    })
    child.stdout.on("data", (chunk) => {
      out += chunk
    })
    child.on("close", (code) => {
      clearTimeout(timer)
      resolve(code === 0 ? out.trim() : "")
    })
    child.stdin.on("error", () => {})
    child.stdin.end(JSON.stringify(event))
  })
}

async function server() {
  return {
    "tool.execute.after": async (input, output) => {
      const exit = output && output.metadata ? output.metadata.exit : undefined
      if (typeof exit !== "number" || exit === 0) return
      const text = await recall({
        tool: input.tool,
        sessionID: input.sessionID,
        callID: input.callID,
        output: output.output,
        metadata: { exit },
      })
      if (text) output.output = `${output.output}\n\n${text}`
    },
  }
}

// opencode's plugin module: an id and the server hooks (opencode 1.18).
export default { id: "pastfix", server }
