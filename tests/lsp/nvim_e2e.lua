-- `scl lsp` with a real client: Neovim's built-in one, headless (tests/test_lsp_nvim.cpp
-- runs it after the documented setup of editors/vim has opened the script). Waits for the
-- diagnostics the client received, asks for a hover and a definition through the client,
-- and writes what came back as JSON to $SCL_LSP_RESULT; then quits.
local bufnr = vim.api.nvim_get_current_buf()
local result = { filetype = vim.bo[bufnr].filetype, diagnostics = {} }

result.received = vim.wait(20000, function()
  return #vim.diagnostic.get(bufnr) > 0
end, 20)
for _, diagnostic in ipairs(vim.diagnostic.get(bufnr)) do
  table.insert(result.diagnostics, {
    lnum = diagnostic.lnum,
    col = diagnostic.col,
    end_col = diagnostic.end_col,
    severity = diagnostic.severity,
    message = diagnostic.message,
  })
end

local function ask(method, line, character)
  local params = {
    textDocument = { uri = vim.uri_from_bufnr(bufnr) },
    position = { line = line, character = character },
  }
  local answers = vim.lsp.buf_request_sync(bufnr, method, params, 10000) or {}
  for _, answer in pairs(answers) do
    if answer.result then
      return answer.result
    end
  end
  return vim.NIL
end

-- The script (test_lsp_nvim.cpp): line 1 `  [kness 0, waist 20]`, line 5
-- `finally after 1 backto lean`.
result.hover = ask('textDocument/hover', 1, 14)
result.definition = ask('textDocument/definition', 5, 24)

local file = assert(io.open(os.getenv('SCL_LSP_RESULT'), 'w'))
file:write(vim.fn.json_encode(result))
file:close()
vim.cmd('qall!')
