-- Driven by test/e2e/neovim.test.ts: Neovim's built-in LSP client (0.7+:
-- push diagnostics only) against the built server, on one file of a node.
-- Writes what the user would see as JSON to $KUBELET_NVIM_OUT, then quits.
local server, file, out = os.getenv('KUBELET_SERVER'), os.getenv('KUBELET_FILE'), os.getenv('KUBELET_NVIM_OUT')
local root = os.getenv('KUBELET_ROOT')
local hover_line, hover_col = tonumber(os.getenv('KUBELET_HOVER_LINE')), tonumber(os.getenv('KUBELET_HOVER_COL'))
local result = { errors = {} }

local function finish()
  local f = io.open(out, 'w')
  f:write(vim.fn.json_encode(result))
  f:close()
  vim.cmd('qa!')
end

local ok, err = pcall(function()
  vim.cmd('edit ' .. vim.fn.fnameescape(file))
  local buf = vim.api.nvim_get_current_buf()
  local id = vim.lsp.start_client({
    name = 'kubelet',
    cmd = { 'node', server, '--stdio' },
    root_dir = root,
    workspace_folders = { { uri = vim.uri_from_fname(root), name = 'ws' } },
  })
  vim.lsp.buf_attach_client(buf, id)

  result.attached = vim.wait(20000, function()
    local c = vim.lsp.get_client_by_id(id)
    return c ~= nil and c.initialized == true
  end, 50)
  result.gotDiagnostics = vim.wait(20000, function() return #vim.diagnostic.get(buf) > 0 end, 50)
  result.diagnostics = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(result.diagnostics, { lnum = d.lnum, col = d.col, severity = d.severity, message = d.message,
      code = d.user_data and d.user_data.lsp and d.user_data.lsp.code or vim.NIL })
  end

  local pos = { textDocument = { uri = vim.uri_from_bufnr(buf) }, position = { line = hover_line, character = hover_col } }
  local hover = vim.lsp.buf_request_sync(buf, 'textDocument/hover', pos, 10000) or {}
  for _, r in pairs(hover) do
    if r.result and r.result.contents then result.hover = r.result.contents.value or r.result.contents end
    if r.err then table.insert(result.errors, r.err.message) end
  end

  -- Completion on a fresh continuation line: type "  --kube-res" after the ExecStart line.
  vim.api.nvim_buf_set_lines(buf, hover_line + 1, hover_line + 1, false, { '\t--kube-res \\' })
  local cpos = { textDocument = pos.textDocument, position = { line = hover_line + 1, character = 11 } }
  local comp = vim.lsp.buf_request_sync(buf, 'textDocument/completion', cpos, 10000) or {}
  result.completion = {}
  for _, r in pairs(comp) do
    local items = r.result and (r.result.items or r.result) or {}
    for _, it in ipairs(items) do table.insert(result.completion, it.label) end
  end
end)
if not ok then table.insert(result.errors, tostring(err)) end
finish()
