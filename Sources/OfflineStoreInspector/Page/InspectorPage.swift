/// The page the inspector serves: plain HTML, CSS and a little JavaScript, compiled into
/// the binary (no build step, no CDN: it works offline). The script builds every element
/// with `textContent`, never `innerHTML`, so stored data cannot inject markup.
enum InspectorPage {
    /// One of the page's files.
    enum Asset {
        case html, css, script
    }

    /// The file with its content type; the HTML carries a strict Content-Security-Policy.
    static func response(_ asset: Asset) -> InspectorResponse {
        switch asset {
        case .html:
            InspectorResponse(contentType: "text/html; charset=utf-8", headers: [
                "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; "
                    + "connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
                "Cache-Control": "no-store",
            ], body: Array(html.utf8))
        case .css:
            InspectorResponse(contentType: "text/css; charset=utf-8", headers: ["Cache-Control": "no-store"], body: Array(css.utf8))
        case .script:
            InspectorResponse(contentType: "text/javascript; charset=utf-8", headers: ["Cache-Control": "no-store"],
                         body: Array((script + views).utf8))
        }
    }

    static let html = """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>OfflineStore inspector</title>
        <link rel="stylesheet" href="/app.css">
        <script src="/app.js" defer></script>
        </head>
        <body>
        <header>
          <strong>OfflineStore inspector</strong>
          <nav>
            <a href="#/" id="nav-overview">Overview</a>
            <a href="#/queue" id="nav-queue">Queue</a>
            <a href="#/conflicts" id="nav-conflicts">Conflicts</a>
            <a href="#/failed" id="nav-failed">Failed</a>
          </nav>
          <span id="mode"></span>
          <span id="live" title="changes by any process show up here">live</span>
        </header>
        <div id="run-status"></div>
        <div id="message" role="status"></div>
        <main id="view"><p>Loading…</p></main>
        </body>
        </html>
        """

    static let css = """
        :root { --fg: #1d2430; --muted: #5d6879; --line: #d8dde6; --bg: #f6f7f9; --local: #1f6feb; --server: #8250df;
                --both: #cf222e; --ok: #1a7f37; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.45 system-ui, "DejaVu Sans", sans-serif; color: var(--fg); background: var(--bg); }
        header { display: flex; gap: 1.5em; align-items: center; padding: .6em 1.2em; background: #24292f; color: #fff; }
        header a { color: #d0d7de; text-decoration: none; margin-right: 1em; }
        header a:hover, header a.active { color: #fff; text-decoration: underline; }
        #mode { margin-left: auto; font-size: 12px; padding: 2px 8px; border-radius: 10px; background: #57606a; }
        #mode.writes { background: #bf8700; }
        #live { font-size: 12px; color: #8ddb8c; }
        #live.stale { color: #ff8182; }
        main { padding: 1em 1.2em 3em; }
        h1 { font-size: 20px; margin: .2em 0 .6em; } h2 { font-size: 16px; margin: 1.4em 0 .5em; }
        table { border-collapse: collapse; background: #fff; width: 100%; }
        th, td { border: 1px solid var(--line); padding: 4px 8px; text-align: left; vertical-align: top; }
        th { background: #eef1f5; font-weight: 600; }
        td.num { text-align: right; font-variant-numeric: tabular-nums; }
        pre { margin: 0; white-space: pre-wrap; word-break: break-word; font: 12px/1.4 "DejaVu Sans Mono", monospace; }
        .copies { display: grid; grid-template-columns: repeat(3, 1fr); gap: .8em; }
        .copy { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: .6em; }
        .copy h3 { margin: 0 0 .4em; font-size: 13px; }
        .copy.local h3 { color: var(--local); } .copy.server h3 { color: var(--server); }
        .badge { display: inline-block; padding: 0 7px; border-radius: 9px; font-size: 12px; background: #eaeef2; }
        .badge.conflicted, .badge.both { background: #ffebe9; color: var(--both); }
        .badge.failed { background: #ffebe9; color: var(--both); }
        .badge.created, .badge.updated, .badge.deleted, .badge.local { background: #ddf4ff; color: var(--local); }
        .badge.server { background: #fbefff; color: var(--server); }
        .badge.synced, .badge.same { background: #dafbe1; color: var(--ok); }
        tr.change-both td { background: #fff8f7; }
        td.pick label { display: inline-block; white-space: nowrap; margin-right: .9em; }
        td.pick input[type=text] { width: 100%; font: 12px "DejaVu Sans Mono", monospace; margin-top: 2px; }
        button { font: inherit; padding: 4px 12px; border-radius: 6px; border: 1px solid #afb8c1; background: #f6f8fa;
                 cursor: pointer; margin-right: .4em; }
        button.primary { background: #1f883d; color: #fff; border-color: #1a7f37; }
        button:disabled { opacity: .5; cursor: not-allowed; }
        #message { margin: 0 1.2em; }
        #message.error, #message.ok { padding: .6em .9em; border-radius: 6px; margin-top: .8em; }
        #message.error { background: #ffebe9; border: 1px solid #ff8182; color: #82071e; }
        #message.ok { background: #dafbe1; border: 1px solid #4ac26b; color: #044f1e; }
        #run-status { padding: .3em 1.2em; font-size: 13px; color: var(--muted); background: #eef1f5; min-height: 1.8em; }
        #run-status.running { color: #9a6700; }
        .muted { color: var(--muted); } .notes { margin: 0; padding-left: 1.1em; font-size: 12px; color: var(--muted); }
        form.search { display: flex; gap: .5em; margin-bottom: .8em; flex-wrap: wrap; }
        form.search input { padding: 4px 6px; }
        .grid2 { display: grid; grid-template-columns: auto 1fr; gap: .2em 1em; background: #fff; padding: .6em;
                 border: 1px solid var(--line); border-radius: 6px; }
        """
}
