-- Neovim's built-in LSP client for SCL (Neovim 0.7 or later; docs/editors.md): starts
-- `scl lsp` for every buffer of filetype scl. With editors/vim on the runtimepath (for
-- the filetype and the syntax), source it from init.lua:
--
--   vim.opt.runtimepath:append('/path/to/scl/editors/vim')
--   dofile('/path/to/scl/editors/vim/lsp.lua')
--
-- vim.g.scl_lsp_cmd overrides the command (default { 'scl', 'lsp' }: scl on the PATH).
local function start(args)
  local config = {
    name = 'scl',
    cmd = vim.g.scl_lsp_cmd or { 'scl', 'lsp' },
    root_dir = vim.fn.fnamemodify(vim.api.nvim_buf_get_name(args.buf), ':p:h'),
  }
  if vim.lsp.start then -- Neovim 0.8 and later: reuses a running client
    vim.lsp.start(config, { bufnr = args.buf })
    return
  end
  -- Neovim 0.7: one client for every scl buffer.
  local id = vim.g.scl_lsp_client
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(config)
    vim.g.scl_lsp_client = id
  end
  if id then
    vim.lsp.buf_attach_client(args.buf, id)
  end
end

vim.api.nvim_create_autocmd('FileType', { pattern = 'scl', callback = start })
