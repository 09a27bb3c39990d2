extension InspectorPage {
    /// The page's core: requests, element building, the hash router, live polling.
    static let script = #"""
        "use strict";
        const state = { generation: null, overview: null, dirty: false, rendering: false, renderAgain: false, keepMessage: false };

        function h(tag, attrs, ...children) {
          const el = document.createElement(tag);
          for (const [k, v] of Object.entries(attrs || {})) {
            if (v === null || v === undefined || v === false) continue;
            if (k.startsWith("on")) el.addEventListener(k.slice(2), v);
            else if (k === "class") el.className = v;
            else el.setAttribute(k, v === true ? "" : v);
          }
          for (const c of children.flat()) {
            if (c === null || c === undefined) continue;
            el.append(c instanceof Node ? c : document.createTextNode(String(c)));
          }
          return el;
        }
        const json = (v) => v === undefined ? "—" : JSON.stringify(v, null, 2);
        const inline = (v) => v === undefined ? "(absent)" : JSON.stringify(v);
        const badge = (text, cls) => h("span", { class: "badge " + (cls || text) }, text);
        const enc = encodeURIComponent;

        async function api(path) {
          const res = await fetch(path, { cache: "no-store" });
          const body = await res.json();
          if (!res.ok) throw new Error(body.error || ("HTTP " + res.status));
          return body;
        }
        async function post(path, payload) {
          const res = await fetch(path, { method: "POST", cache: "no-store",
            headers: { "Content-Type": "application/json", "X-Offline-Store-Inspector": "1" },
            body: JSON.stringify(payload) });
          const body = await res.json();
          if (!res.ok) throw new Error(body.error || ("HTTP " + res.status));
          return body;
        }
        function say(text, kind) {
          const m = document.getElementById("message");
          m.className = text ? kind : "";
          m.textContent = text || "";
        }
        async function act(path, payload, after) {
          try {
            const body = await post(path, payload);
            say(body.message || "done", "ok");
            state.dirty = false;
            state.keepMessage = !!after;
            if (after) after(body);
            await render();
          } catch (e) { say(e.message, "error"); }
        }

        function parseHash() {
          const raw = location.hash.replace(/^#/, "") || "/";
          const [path, query] = raw.split("?");
          const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
          return { parts, params: new URLSearchParams(query || "") };
        }
        const routes = {
          "": viewOverview, c: viewCollection, o: viewObject, queue: viewQueue,
          conflicts: viewConflicts, x: viewConflict, failed: viewFailed,
        };
        // One render at a time; a render asked for meanwhile (a click on a link, a live change)
        // runs after it, for the hash of that moment, and a view the hash left is not shown.
        async function render() {
          if (state.rendering) { state.renderAgain = true; return; }
          state.rendering = true;
          try {
            do {
              state.renderAgain = false;
              const hash = location.hash;
              const { parts, params } = parseHash();
              const view = routes[parts[0] || ""];
              for (const a of document.querySelectorAll("header nav a"))
                a.classList.toggle("active", a.getAttribute("href") === "#/" + (parts[0] || ""));
              try {
                state.overview = await api("/api/overview");
                showMode(state.overview);
                const node = view ? await view(parts.slice(1), params) : h("p", {}, "No such view.");
                if (location.hash !== hash) { state.renderAgain = true; continue; }
                const main = document.getElementById("view");
                main.replaceChildren(node);
                main.dataset.view = parts[0] || "overview";
              } catch (e) { say(e.message, "error"); }
            } while (state.renderAgain);
          } finally { state.rendering = false; }
        }
        function showMode(o) {
          const mode = document.getElementById("mode");
          mode.textContent = o.allowWrites ? "writes allowed" : "read-only";
          mode.className = o.allowWrites ? "writes" : "";
          document.getElementById("nav-queue").textContent = "Queue (" + o.queue + ")";
          document.getElementById("nav-conflicts").textContent = "Conflicts (" + o.conflicts + ")";
          document.getElementById("nav-failed").textContent = "Failed (" + o.failed + ")";
        }
        function showActivity(a) {
          const el = document.getElementById("run-status");
          el.className = a.running ? "running" : "";
          if (a.running) {
            const p = a.progress;
            el.textContent = a.running + " running" + (p ? ": " + p.direction + " " + p.collection + " " + p.processed
              + (p.total !== null ? "/" + p.total : "") + ", " + p.cumulative + " processed" : "")
              + (a.conflictsMet ? ", " + a.conflictsMet + " conflicts" : "") + (a.failedMet ? ", " + a.failedMet + " failed" : "");
          } else if (a.storeSyncing) {
            el.textContent = "a flush, refresh or sync of this store runs in another process";
          } else if (a.last) {
            const r = a.lastReport;
            el.textContent = "last " + a.last + (a.lastError ? " stopped: " + a.lastError : " finished")
              + (r ? " — pushed " + r.pushed + ", pulled " + r.pulled + ", conflicts " + r.conflicts + ", failed "
              + r.failed + ", pending " + r.pending : "") + " (" + a.lastFinishedAt + ")";
          } else el.textContent = "no flush, refresh or sync run from this page yet";
          el.dataset.state = a.running ? "running" : a.storeSyncing ? "elsewhere"
            : (a.last ? (a.lastError ? "error" : "finished") : "idle");
        }
        async function poll() {
          const live = document.getElementById("live");
          try {
            const body = await api("/api/live");
            live.className = "";
            live.textContent = "live · " + body.generation + (body.generation === 1 ? " change" : " changes") + " seen";
            showActivity(body.activity);
            if (state.generation !== null && body.generation !== state.generation && !state.dirty) await render();
            state.generation = body.generation;
          } catch (e) { live.className = "stale"; live.textContent = "inspector unreachable"; }
        }
        window.addEventListener("hashchange", () => {
          if (!state.keepMessage) say("");
          state.keepMessage = false;
          state.dirty = false;
          render();
        });
        window.addEventListener("DOMContentLoaded", () => { render(); poll(); setInterval(poll, 1000); });
        """#
}
