"""Delta mode: odatapy's own behaviour (Docs/ODataFacts.md, "Delta mode")."""

from __future__ import annotations

import unittest

from .support import ServerCase, guid

TRACK = {"Prefer": "odata.track-changes"}


class DeltaFacts(ServerCase):
    mode = "delta"
    page_size = 3

    def test_etags_are_version_counters(self) -> None:
        created = self.server.create("Tasks", {"ID": guid(1), "Title": "a"})
        self.assertEqual(created.header("ETag"), 'W/"1"')
        self.assertEqual(created.json["@odata.etag"], 'W/"1"')
        updated = self.server.request("PATCH", f"Tasks({guid(1)})", {"Title": "b"}, headers={"If-Match": 'W/"1"'})
        self.assertEqual((updated.status, updated.header("ETag")), (204, 'W/"2"'))
        self.assertEqual(self.server.request("GET", f"Tasks({guid(1)})").json["@odata.etag"], 'W/"2"')

    def test_stale_if_match_is_412_missing_is_428_star_matches(self) -> None:
        self.server.create("Tasks", {"ID": guid(2), "Title": "a"})
        self.server.request("PATCH", f"Tasks({guid(2)})", {"Title": "b"}, headers={"If-Match": 'W/"1"'})
        stale = self.server.request("PATCH", f"Tasks({guid(2)})", {"Title": "c"}, headers={"If-Match": 'W/"1"'})
        self.assertEqual(stale.status, 412)
        self.assertEqual(stale.json["error"]["code"], "412")
        missing = self.server.request("PATCH", f"Tasks({guid(2)})", {"Title": "c"})
        self.assertEqual(missing.status, 428)
        self.assertEqual(self.server.request("DELETE", f"Tasks({guid(2)})").status, 428)
        star = self.server.request("PATCH", f"Tasks({guid(2)})", {"Title": "d"}, headers={"If-Match": "*"})
        self.assertEqual((star.status, star.header("ETag")), (204, 'W/"3"'))

    def test_if_match_is_compared_weakly(self) -> None:
        self.server.create("Tasks", {"ID": guid(5), "Title": "a"})
        strong = self.server.request("PATCH", f"Tasks({guid(5)})", {"Title": "b"}, headers={"If-Match": '"1"'})
        self.assertEqual((strong.status, strong.header("ETag")), (204, 'W/"2"'))

    def test_duplicate_key_is_409(self) -> None:
        self.assertEqual(self.server.create("Tasks", {"ID": guid(3), "Title": "a"}).status, 201)
        again = self.server.create("Tasks", {"ID": guid(3), "Title": "a"})
        self.assertEqual(again.status, 409)
        self.assertEqual(again.json["error"]["code"], "409")

    def test_deleting_a_missing_entity_is_404_whatever_the_if_match(self) -> None:
        created = self.server.create("Tasks", {"ID": guid(4), "Title": "a"})
        self.assertEqual(self.server.request("DELETE", f"Tasks({guid(4)})",
                                             headers={"If-Match": created.header("ETag")}).status, 204)
        for if_match in ('W/"1"', "*"):
            again = self.server.request("DELETE", f"Tasks({guid(4)})", headers={"If-Match": if_match})
            self.assertEqual(again.status, 404)

    def test_track_changes_gives_a_delta_link_whose_delta_lists_changes_and_removals(self) -> None:
        for n in (10, 11, 12):
            self.server.create("Customers", {"Name": f"c{n}"})
        first = self.server.request("GET", "Customers", headers=TRACK)
        self.assertEqual(first.header("Preference-Applied"), "odata.track-changes")
        delta_link = first.json["@odata.deltaLink"]
        self.assertIn("$deltatoken=", delta_link)
        ids = [c["ID"] for c in first.json["value"]]
        etags = {c["ID"]: c["@odata.etag"] for c in first.json["value"]}
        self.server.request("PATCH", f"Customers({ids[0]})", {"Name": "changed"}, headers={"If-Match": etags[ids[0]]})
        self.server.request("DELETE", f"Customers({ids[1]})", headers={"If-Match": etags[ids[1]]})
        added = self.server.create("Customers", {"Name": "added"}).json["ID"]
        gone = self.server.create("Customers", {"Name": "short-lived"})
        self.server.request("DELETE", f"Customers({gone.json['ID']})", headers={"If-Match": gone.header("ETag")})
        delta = self.server.request("GET", delta_link)
        self.assertEqual(delta.status, 200)
        self.assertTrue(delta.json["@odata.context"].endswith("$metadata#Customers/$delta"))
        changed = {e["ID"]: e for e in delta.json["value"] if "@removed" not in e}
        removed = [e for e in delta.json["value"] if "@removed" in e]
        self.assertEqual(sorted(changed), [ids[0], added])
        self.assertEqual(changed[ids[0]]["Name"], "changed")
        self.assertEqual(changed[ids[0]]["@odata.etag"], 'W/"2"')
        self.assertTrue(changed[ids[0]]["@odata.id"].endswith(f"/Customers({ids[0]})"))
        # A create and a delete inside one window is a removal of something never seen.
        self.assertEqual(sorted(e["@id"].rsplit("/", 1)[1] for e in removed),
                         sorted([f"Customers({ids[1]})", f"Customers({gone.json['ID']})"]))
        self.assertEqual(removed[0]["@removed"], {"reason": "deleted"})
        self.assertNotEqual(delta.json["@odata.deltaLink"], delta_link)
        self.assertEqual(self.server.request("GET", delta.json["@odata.deltaLink"]).json["value"], [])

    def test_a_4_0_client_gets_deleted_entities_in_the_4_0_shape(self) -> None:
        created = self.server.create("Tasks", {"ID": guid(20), "Title": "a"})
        link = self.server.request("GET", "Tasks", headers=TRACK).json["@odata.deltaLink"]
        self.server.request("DELETE", f"Tasks({guid(20)})", headers={"If-Match": created.header("ETag")})
        delta = self.server.request("GET", link, headers={"OData-MaxVersion": "4.0"})
        self.assertEqual(delta.header("OData-Version"), "4.0")
        entry = delta.json["value"][0]
        self.assertEqual(entry["reason"], "deleted")
        self.assertTrue(entry["id"].endswith(f"/Tasks({guid(20)})"))
        self.assertTrue(entry["@odata.context"].endswith("$metadata#Tasks/$deletedEntity"))

    def test_the_delta_link_drops_select_and_its_token_counts_changes_of_every_set(self) -> None:
        first = self.server.request("GET", "Customers?$select=ID,Name", headers=TRACK)
        link = first.json["@odata.deltaLink"]
        self.assertTrue(link.endswith("/Customers?$deltatoken=" + link.rsplit("=", 1)[1]), link)
        before = int(link.rsplit("=", 1)[1])
        self.server.create("Tasks", {"ID": guid(35), "Title": "elsewhere"})
        after = self.server.request("GET", "Customers", headers=TRACK).json["@odata.deltaLink"]
        self.assertEqual(int(after.rsplit("=", 1)[1]), before + 1)
        self.assertEqual(self.server.request("GET", link).json["value"], [])

    def test_the_delta_link_drops_the_filter(self) -> None:
        self.server.create("Tasks", {"ID": guid(30), "Title": "wanted"})
        first = self.server.request("GET", "Tasks?$filter=Title eq 'wanted'", headers=TRACK)
        self.assertEqual([t["ID"] for t in first.json["value"]], [guid(30)])
        link = first.json["@odata.deltaLink"]
        self.assertNotIn("filter", link)
        self.server.create("Tasks", {"ID": guid(31), "Title": "unwanted"})
        delta = self.server.request("GET", link)
        self.assertEqual([t["ID"] for t in delta.json["value"]], [guid(31)])

    def test_every_page_carries_a_delta_link_and_the_delta_is_not_paged(self) -> None:
        customer = self.server.create("Customers", {"Name": "orders"}).json["ID"]
        for n in range(4):
            self.server.create("Orders", {"CustomerID": customer, "Product": f"p{n}", "Quantity": n})
        first = self.server.request("GET", "Orders", headers=TRACK)
        self.assertIn("@odata.nextLink", first.json)
        self.assertIn("@odata.deltaLink", first.json)
        second = self.server.request("GET", first.json["@odata.nextLink"], headers=TRACK)
        self.assertIn("@odata.deltaLink", second.json)
        for n in range(5):
            self.server.create("Orders", {"CustomerID": customer, "Product": f"q{n}", "Quantity": n})
        delta = self.server.request("GET", second.json["@odata.deltaLink"])
        self.assertEqual(len(delta.json["value"]), 5)
        self.assertNotIn("@odata.nextLink", delta.json)

    def test_next_link_tokens_are_key_based_so_a_delete_between_pages_skips_nothing(self) -> None:
        keys = [self.server.create("Customers", {"Name": f"page{n}"}).json["ID"] for n in range(6)]
        first = self.server.request("GET", "Customers?$filter=startswith(Name,'page')")
        next_link = first.json["@odata.nextLink"]
        self.assertIn(f"$skiptoken=3%21{keys[2]}", next_link)  # "<offset>!<key>"
        page_one = [c["ID"] for c in first.json["value"]]
        self.assertEqual(page_one, keys[:3])
        etag = first.json["value"][0]["@odata.etag"]
        self.server.request("DELETE", f"Customers({keys[0]})", headers={"If-Match": etag})
        second = self.server.request("GET", next_link)
        self.assertEqual([c["ID"] for c in second.json["value"]], keys[3:6])

    def test_max_page_size_lowers_the_page(self) -> None:
        for n in range(3):
            self.server.create("Tasks", {"ID": guid(60 + n), "Title": "mps"})
        answer = self.server.request("GET", "Tasks?$filter=Title eq 'mps'", headers={"Prefer": "odata.maxpagesize=2"})
        self.assertEqual(len(answer.json["value"]), 2)
        self.assertEqual(answer.header("Preference-Applied"), "odata.maxpagesize=2")

    def test_a_failed_atomicity_group_reports_only_the_failing_request(self) -> None:
        existing = self.server.create("Tasks", {"ID": guid(70), "Title": "a"})
        batch = self.server.request("POST", "$batch", {"requests": [
            {"id": "1", "atomicityGroup": "g", "method": "POST", "url": "Tasks",
             "body": {"ID": guid(71), "Title": "new"}},
            {"id": "2", "atomicityGroup": "g", "method": "PATCH", "url": f"Tasks({guid(70)})",
             "headers": {"If-Match": 'W/"9"'}, "body": {"Title": "stale"}},
            {"id": "3", "atomicityGroup": "g", "method": "POST", "url": "Tasks",
             "body": {"ID": guid(72), "Title": "after"}},
        ]})
        self.assertEqual(batch.status, 200)
        responses = batch.json["responses"]
        self.assertEqual([(r["id"], r["status"]) for r in responses], [("2", 412)])
        self.assertEqual(responses[0]["atomicityGroup"], "g")
        self.assertEqual(self.server.request("GET", f"Tasks({guid(71)})").status, 404)
        self.assertEqual(self.server.request("GET", f"Tasks({guid(70)})").header("ETag"), existing.header("ETag"))

    def test_a_successful_group_answers_each_request(self) -> None:
        batch = self.server.request("POST", "$batch", {"requests": [
            {"id": "a", "atomicityGroup": "g", "method": "POST", "url": "Tasks", "body": {"ID": guid(80), "Title": "x"}},
            {"id": "b", "atomicityGroup": "g", "method": "POST", "url": "Tasks", "body": {"ID": guid(81), "Title": "y"}},
        ]})
        self.assertEqual([(r["id"], r["status"]) for r in batch.json["responses"]], [("a", 201), ("b", 201)])
        self.assertEqual(batch.json["responses"][0]["headers"]["etag"], 'W/"1"')

    def test_a_delta_link_survives_a_restart(self) -> None:
        created = self.server.create("Tasks", {"ID": guid(90), "Title": "a"})
        link = self.server.request("GET", "Tasks", headers=TRACK).json["@odata.deltaLink"]
        token = link.split("$deltatoken=")[1]
        self.server.request("DELETE", f"Tasks({guid(90)})", headers={"If-Match": created.header("ETag")})
        self.server.stop()
        self.server.start()
        delta = self.server.request("GET", f"Tasks?$deltatoken={token}")
        self.assertEqual([e["@id"] for e in delta.json["value"]], [f"{self.server.url}/Tasks({guid(90)})"])


if __name__ == "__main__":
    unittest.main()
