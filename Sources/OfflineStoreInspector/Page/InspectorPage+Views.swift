extension InspectorPage {
    /// The page's views: overview, collection, object, queue, conflicts, one conflict, failed.
    static let views = #"""

        function runButtons(o) {
          const disabled = !o.allowWrites || !o.server;
          return h("p", {},
            ["flush", "refresh", "sync"].map(op => h("button", { id: "run-" + op, class: op === "sync" ? "primary" : "",
              disabled, onclick: () => act("/api/run", { operation: op }) }, op[0].toUpperCase() + op.slice(1))),
            !o.allowWrites ? h("span", { class: "muted" }, "read-only: start with --allow-writes to sync, resolve and retry") : null);
        }
        async function viewOverview() {
          const o = state.overview, a = o.activity;
          return h("div", {},
            h("h1", {}, "Store"),
            h("div", { class: "grid2" },
              h("span", {}, "file"), h("span", {}, o.store),
              h("span", {}, "server"), h("span", {}, o.server ? o.server.backend + " " + o.server.url
                + (o.server.bucket ? " (bucket " + o.server.bucket + ")" : "") + ", " + o.server.writeMode + " writes" : "none"),
              h("span", {}, "last sync or refresh"), h("span", {}, o.lastSync || "never"),
              h("span", {}, "last flush / refresh here"), h("span", {}, (a.lastFlushAt || "—") + " / " + (a.lastRefreshAt || "—")),
              h("span", {}, "running"), h("span", { id: "running" }, a.running || "no")),
            runButtons(o),
            h("h2", {}, "Collections"),
            h("table", { id: "collections" },
              h("tr", {}, ["collection", "synced", "pending", "conflicted", "failed", "total", "schema", "policies"].map(t => h("th", {}, t))),
              o.collections.map(c => h("tr", { class: "collection-row", "data-name": c.name },
                h("td", {}, h("a", { href: "#/c/" + enc(c.name) }, c.name)),
                ["synced", "pending", "conflicted", "failed", "total"].map(k => h("td", { class: "num " + k }, c[k])),
                h("td", { class: "num schema-version" }, "v" + c.schemaVersion),
                h("td", { class: "muted" }, (c.localOnly ? "local-only; " : "") + "conflicts: " + c.conflictPolicy
                  + "; offline edits: " + c.updatePolicy)))));
        }

        async function viewCollection([name], params) {
          const q = new URLSearchParams({ collection: name, q: params.get("q") || "", field: params.get("field") || "",
            value: params.get("value") || "", state: params.get("state") || "", offset: params.get("offset") || "0" });
          const page = await api("/api/objects?" + q);
          const info = state.overview.collections.find(c => c.name === name) || { indexedFields: [] };
          const go = (offset) => {
            const p = new URLSearchParams({ q: idInput.value, field: fieldInput.value, value: valueInput.value,
              state: stateInput.value, offset: String(offset) });
            location.hash = "#/c/" + enc(name) + "?" + p;
          };
          const idInput = h("input", { id: "search-id", placeholder: "id contains…", value: params.get("q") || "" });
          const fieldInput = h("input", { id: "search-field", list: "indexed", placeholder: "field",
            value: params.get("field") || "" });
          const valueInput = h("input", { id: "search-value", placeholder: "value (JSON or text)", value: params.get("value") || "" });
          const stateInput = h("select", { id: "search-state" }, ["", "synced", "created", "updated", "deleted", "conflicted", "failed"]
            .map(s => h("option", { value: s, selected: s === (params.get("state") || "") }, s || "any state")));
          const offset = page.offset;
          return h("div", {},
            h("h1", {}, "Collection ", name),
            h("form", { class: "search", onsubmit: (e) => { e.preventDefault(); go(0); } },
              idInput, fieldInput, h("datalist", { id: "indexed" }, info.indexedFields.map(f => h("option", { value: f }))),
              valueInput, stateInput, h("button", { id: "search-go", type: "submit" }, "Search")),
            h("table", { id: "objects" },
              h("tr", {}, ["id", "state", "object"].map(t => h("th", {}, t))),
              page.objects.map(o => h("tr", { class: "object-row", "data-id": o.id },
                h("td", {}, h("a", { href: "#/o/" + enc(name) + "/" + enc(o.id) }, o.id)),
                h("td", {}, badge(o.state)), h("td", {}, h("pre", {}, inline(o.value === null ? undefined : o.value)))))),
            h("p", {}, h("button", { id: "page-prev", disabled: offset === 0, onclick: () => go(Math.max(0, offset - page.limit)) }, "‹ Previous"),
              h("span", { class: "muted" }, "objects " + (offset + 1) + "–" + (offset + page.objects.length) + " "),
              h("button", { id: "page-next", disabled: !page.more, onclick: () => go(offset + page.limit) }, "Next ›")));
        }

        function copies(base, local, server, labels) {
          return h("div", { class: "copies" },
            [[base, labels[0], "base"], [local, labels[1], "local"], [server, labels[2], "server"]].map(([v, t, cls]) =>
              h("div", { class: "copy " + cls, id: "copy-" + cls }, h("h3", {}, t), h("pre", {}, v === null ? "(none)" : json(v)))));
        }
        function queueTable(entries, id) {
          return h("table", { id },
            h("tr", {}, ["#", "object", "kind", "state", "attempts", "last error", "request", "coalescing"].map(t => h("th", {}, t))),
            entries.map(e => h("tr", { class: "queue-row", "data-seq": e.seq, "data-kind": e.kind, "data-folded": e.folded },
              h("td", { class: "num" }, e.seq),
              h("td", {}, h("a", { href: "#/o/" + enc(e.collection) + "/" + enc(e.id) }, e.collection + "/" + e.id)),
              h("td", {}, e.kind), h("td", {}, badge(e.state, e.state === "failed" ? "failed" : "")),
              h("td", { class: "num" }, e.attempts),
              h("td", {}, e.lastError ? e.lastError + (e.status ? " (HTTP " + e.status + ")" : "") : ""),
              h("td", { class: "muted" }, e.request),
              h("td", {}, e.folded ? e.folded + " edit(s) folded in" : "",
                e.notes.length ? h("ul", { class: "notes" }, e.notes.map(n => h("li", {}, n))) : null))));
        }
        async function viewObject([name, id]) {
          const d = await api("/api/object?" + new URLSearchParams({ collection: name, id }));
          const o = d.object;
          return h("div", {},
            h("h1", {}, name + "/" + id + " ", badge(o.state)),
            o.state === "conflicted" ? h("p", {}, h("a", { id: "open-conflict", href: "#/x/" + enc(name) + "/" + enc(id) }, "Resolve this conflict →")) : null,
            h("p", { class: "muted" }, "base version " + (o.baseVersion || "—") + ", server version " + (o.serverVersion || "—")
              + (o.deleted ? "; deleted locally" : "")),
            copies(o.base, o.deleted ? null : o.local, o.persistent, ["base (the edit started from)", "local (unsent edit)", "persistent (server)"]),
            h("h2", {}, "Queue entries of this object"),
            d.queue.length ? queueTable(d.queue, "object-queue") : h("p", { class: "muted", id: "object-queue" }, "nothing queued"));
        }

        async function viewQueue() {
          const d = await api("/api/queue");
          return h("div", {}, h("h1", {}, "Queue (FIFO)"),
            h("p", { class: "muted" }, "One request per entry: later edits of an object fold into its pending entry "
              + "(create+update → create, create+delete → nothing, update+update → update, update+delete → delete)."),
            queueTable(d.entries, "queue"),
            h("h2", {}, "Seen leaving the queue"),
            d.departed.length ? h("ul", { id: "departed" }, d.departed.map(x => h("li", {}, "#" + x.seq + " " + x.kind + " "
              + x.collection + "/" + x.id + ": " + x.note))) : h("p", { class: "muted" }, "nothing yet"));
        }

        async function viewConflicts() {
          const d = await api("/api/conflicts");
          if (!d.conflicts.length) return h("div", {}, h("h1", {}, "Conflicts"), h("p", { id: "no-conflicts" }, "No conflicts."));
          return h("div", {}, h("h1", {}, "Conflicts"),
            h("table", { id: "conflicts" }, h("tr", {}, ["object", "fields both changed", "server version"].map(t => h("th", {}, t))),
              d.conflicts.map(c => h("tr", { class: "conflict-row", "data-id": c.id },
                h("td", {}, h("a", { href: "#/x/" + enc(c.collection) + "/" + enc(c.id) }, c.collection + "/" + c.id)),
                h("td", {}, c.fields.filter(f => f.change === "both").map(f => f.name).join(", ") || "—"),
                h("td", {}, c.serverVersion || "—")))));
        }

        async function viewConflict([name, id]) {
          const c = await api("/api/conflict?" + new URLSearchParams({ collection: name, id }));
          const writes = state.overview.allowWrites;
          const rows = c.fields.map(f => {
            const group = "pick-" + f.name;
            const fallback = f.change === "server" ? "server" : "local";
            const start = fallback === "server" ? (f.hasServer ? f.server : null) : (f.hasLocal ? f.local : null);
            const text = h("input", { type: "text", class: "edit-value", "data-field": f.name, value: JSON.stringify(start),
              oninput: () => { radios.edit.checked = true; state.dirty = true; say(""); } });
            const sideValue = { local: f.hasLocal ? f.local : null, server: f.hasServer ? f.server : null };
            const radio = (take) => h("input", { type: "radio", name: group, value: take, "data-field": f.name,
              checked: take === fallback, onchange: () => {
                state.dirty = true;
                say("");
                if (take in sideValue) text.value = JSON.stringify(sideValue[take]);
              } });
            const radios = { local: radio("local"), server: radio("server"), edit: radio("edit") };
            const cell = (has, v) => h("td", {}, h("pre", {}, has ? inline(v) : "(absent)"));
            return h("tr", { class: "field-row change-" + f.change, "data-field": f.name },
              h("th", {}, f.name), cell(f.hasBase, f.base), cell(f.hasLocal, f.local), cell(f.hasServer, f.server),
              h("td", {}, badge(f.change === "both" ? "both changed" : f.change === "same" ? "same" : f.change + " changed", f.change)),
              h("td", { class: "pick" }, f.change === "same" ? h("span", { class: "muted" }, "same on both") :
                [h("label", {}, radios.local, " local"), h("label", {}, radios.server, " server"),
                 h("label", {}, radios.edit, " edit:"), text]));
          });
          const resolveFields = () => {
            const fields = {};
            for (const f of c.fields) {
              if (f.change === "same") continue;
              const picked = document.querySelector('input[type=radio][data-field="' + CSS.escape(f.name) + '"]:checked');
              if (!picked) continue;
              const choice = { take: picked.value };
              if (picked.value === "edit")
                choice.json = document.querySelector('input.edit-value[data-field="' + CSS.escape(f.name) + '"]').value;
              fields[f.name] = choice;
            }
            act("/api/resolve", { collection: name, id, fields }, () => { location.hash = "#/o/" + enc(name) + "/" + enc(id); });
          };
          const keep = (side) => act("/api/resolve", { collection: name, id, keep: side },
            () => { location.hash = "#/o/" + enc(name) + "/" + enc(id); });
          return h("div", { id: "conflict" },
            h("h1", {}, "Conflict: " + name + "/" + id),
            h("p", { class: "muted" }, "server version " + (c.serverVersion || "—") + ". The result is queued as an update "
              + "on the server's version and sent by the next flush or sync."),
            copies(c.base, c.local, c.server, ["base", "local", "server"]),
            h("h2", {}, "Field by field"),
            c.mergeable ? h("table", { id: "fields" },
              h("tr", {}, ["field", "base", "local", "server", "change", "resolution"].map(t => h("th", {}, t))), rows)
              : h("p", {}, "One side is a delete: keep local or keep server."),
            h("p", {},
              c.mergeable ? h("button", { id: "resolve-fields", class: "primary", disabled: !writes, onclick: resolveFields }, "Resolve with these choices") : null,
              h("button", { id: "keep-local", disabled: !writes, onclick: () => keep("local") }, "Keep local"),
              h("button", { id: "keep-server", disabled: !writes, onclick: () => keep("server") }, "Keep server")));
        }

        async function viewFailed() {
          const d = await api("/api/failed");
          const writes = state.overview.allowWrites;
          if (!d.failed.length) return h("div", {}, h("h1", {}, "Failed entries"), h("p", { id: "no-failed" }, "No failed entries."));
          return h("div", {}, h("h1", {}, "Failed entries"),
            h("table", { id: "failed" }, h("tr", {}, ["#", "object", "kind", "server said", "actions"].map(t => h("th", {}, t))),
              d.failed.map(e => h("tr", { class: "failed-row", "data-id": e.id },
                h("td", { class: "num" }, e.seq),
                h("td", {}, h("a", { href: "#/o/" + enc(e.collection) + "/" + enc(e.id) }, e.collection + "/" + e.id)),
                h("td", {}, e.kind, e.failure === "forbidden"
                  ? h("span", { class: "forbidden", title: "the user may not write this; retry once access is granted" }, " forbidden")
                  : null),
                h("td", {}, e.lastError || (e.status ? "HTTP " + e.status : ""),
                  Object.keys(e.validation).length ? h("ul", { class: "notes" }, Object.entries(e.validation)
                    .map(([k, v]) => h("li", {}, k + ": " + v.join("; ")))) : null,
                  e.body ? h("pre", {}, e.body) : null),
                h("td", {}, e.actions.map(a => h("button", { "data-action": a, disabled: !writes,
                  onclick: () => act("/api/failed-action", { collection: e.collection, id: e.id, action: a }) }, a)))))));
        }
        """#
}
