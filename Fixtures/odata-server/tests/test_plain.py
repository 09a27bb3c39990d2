"""Plain mode: the other framework's behaviour (Docs/ODataFacts.md, "Plain mode")."""

from __future__ import annotations

import unittest
import xml.etree.ElementTree as ET
from datetime import datetime

from .support import ServerCase, guid

EDM = "{http://docs.oasis-open.org/odata/ns/edm}"


def _ms(timestamp: str) -> int:
    return int(round(datetime.fromisoformat(timestamp.replace("Z", "+00:00")).timestamp() * 1000))


class PlainFacts(ServerCase):
    mode = "plain"
    page_size = 3

    def test_no_delta_at_all(self) -> None:
        self.server.create("Tasks", {"ID": guid(1), "Title": "a"})
        answer = self.server.request("GET", "Tasks", headers={"Prefer": "odata.track-changes"})
        self.assertEqual(answer.status, 200)
        self.assertNotIn("@odata.deltaLink", answer.json)
        self.assertIsNone(answer.header("Preference-Applied"))
        refused = self.server.request("GET", "Tasks?$deltatoken=1")
        self.assertEqual(refused.status, 400)
        self.assertEqual(refused.json["error"]["code"], "BadRequest")

    def test_etags_are_the_modified_at_milliseconds(self) -> None:
        created = self.server.create("Tasks", {"ID": guid(2), "Title": "a"})
        self.assertEqual(created.header("ETag"), f'W/"{_ms(created.json["ModifiedAt"])}"')
        self.assertEqual(created.json["@odata.etag"], created.header("ETag"))

    def test_two_writes_in_one_millisecond_share_an_etag_so_a_stale_if_match_passes(self) -> None:
        self.server.set_clock(1_800_000_000_000)
        created = self.server.create("Tasks", {"ID": guid(3), "Title": "a"})
        self.assertEqual(created.header("ETag"), 'W/"1800000000000"')
        first = self.server.request("PATCH", f"Tasks({guid(3)})", {"Title": "b"}, headers={"If-Match": created.header("ETag")})
        self.assertEqual((first.status, first.header("ETag")), (204, 'W/"1800000000000"'))
        # The other writer still holds the creation's ETag: it matches, and b is overwritten.
        stale = self.server.request("PATCH", f"Tasks({guid(3)})", {"Title": "c"}, headers={"If-Match": created.header("ETag")})
        self.assertEqual(stale.status, 204)
        self.server.set_clock(1_800_000_000_001)
        moved = self.server.request("PATCH", f"Tasks({guid(3)})", {"Title": "d"}, headers={"If-Match": "*"})
        self.assertEqual(moved.header("ETag"), 'W/"1800000000001"')
        late = self.server.request("PATCH", f"Tasks({guid(3)})", {"Title": "e"}, headers={"If-Match": created.header("ETag")})
        self.assertEqual(late.status, 412)
        self.assertEqual(late.json["error"]["code"], "PreconditionFailed")

    def test_all_writes_of_an_atomicity_group_share_one_etag(self) -> None:
        batch = self.server.request("POST", "$batch", {"requests": [
            {"id": str(n), "atomicityGroup": "g", "method": "POST", "url": "Tasks",
             "body": {"ID": guid(10 + n), "Title": f"g{n}"}} for n in range(3)
        ]})
        etags = {r["headers"]["etag"] for r in batch.json["responses"]}
        self.assertEqual([r["status"] for r in batch.json["responses"]], [201, 201, 201])
        self.assertEqual(len(etags), 1)

    def test_star_always_matches_and_no_if_match_is_no_428(self) -> None:
        self.server.create("Tasks", {"ID": guid(20), "Title": "a"})
        self.assertEqual(self.server.request("PATCH", f"Tasks({guid(20)})", {"Title": "b"},
                                             headers={"If-Match": "*"}).status, 204)
        self.assertEqual(self.server.request("PATCH", f"Tasks({guid(20)})", {"Title": "c"}).status, 204)
        self.assertEqual(self.server.request("DELETE", f"Tasks({guid(20)})").status, 204)

    def test_a_resent_create_of_an_existing_key_is_500(self) -> None:
        self.assertEqual(self.server.create("Tasks", {"ID": guid(30), "Title": "a"}).status, 201)
        again = self.server.create("Tasks", {"ID": guid(30), "Title": "a"})
        self.assertEqual(again.status, 500)
        self.assertEqual(again.json, {"error": {
            "code": "InternalServerError",
            "message": "An error occurred while saving the entity changes. See the inner exception for details.",
            "target": None}})

    def test_a_resent_delete_with_its_old_etag_is_412_only_star_gives_404(self) -> None:
        created = self.server.create("Tasks", {"ID": guid(40), "Title": "a"})
        etag = created.header("ETag")
        self.assertEqual(self.server.request("DELETE", f"Tasks({guid(40)})", headers={"If-Match": etag}).status, 204)
        again = self.server.request("DELETE", f"Tasks({guid(40)})", headers={"If-Match": etag})
        self.assertEqual(again.status, 412)
        self.assertEqual(again.json["error"]["code"], "PreconditionFailed")
        self.assertEqual(self.server.request("DELETE", f"Tasks({guid(40)})", headers={"If-Match": "*"}).status, 404)
        self.assertEqual(self.server.request("DELETE", f"Tasks({guid(40)})").status, 404)
        self.assertEqual(self.server.request("PATCH", f"Tasks({guid(40)})", {"Title": "b"},
                                             headers={"If-Match": etag}).status, 412)

    def test_pages_are_row_offsets_ordered_by_key_so_a_delete_between_pages_skips_a_row(self) -> None:
        made = [self.server.create("Customers", {"Name": f"row{n}"}) for n in range(7)]
        keys = [c.json["ID"] for c in made]
        first = self.server.request("GET", "Customers?$filter=startswith(Name,'row')")
        self.assertEqual([c["ID"] for c in first.json["value"]], keys[:3])
        next_link = first.json["@odata.nextLink"]
        self.assertTrue(next_link.endswith("$skiptoken=3"), next_link)
        self.server.request("DELETE", f"Customers({keys[0]})", headers={"If-Match": made[0].header("ETag")})
        second = self.server.request("GET", next_link)
        self.assertEqual([c["ID"] for c in second.json["value"]], keys[4:7])  # keys[3] is never listed

    def test_guid_keys_are_ordered_as_text(self) -> None:
        for n in (53, 51, 52):
            self.server.create("Tasks", {"ID": guid(n), "Title": "order"})
        answer = self.server.request("GET", "Tasks?$filter=Title eq 'order'")
        self.assertEqual([t["ID"] for t in answer.json["value"]], [guid(51), guid(52), guid(53)])

    def _all_ids(self, path: str) -> list[str]:
        ids, answer = [], self.server.request("GET", path)
        while True:
            self.assertEqual(answer.status, 200, answer.text)
            ids += [t["ID"] for t in answer.json["value"]]
            if "@odata.nextLink" not in answer.json:
                return ids
            answer = self.server.request("GET", answer.json["@odata.nextLink"])

    def test_key_ranges_ordered_by_key_answer_as_the_filter_does(self) -> None:
        # With `$orderby=ID` the fixture answers key bounds by a binary search (a key index);
        # without it, odatapy evaluates the filter on every entity. Both list the same keys.
        made = {guid(n) for n in range(170, 180)}
        for key in made:
            self.server.create("Tasks", {"ID": key, "Title": "range"})
        cases = {
            f"ID gt {guid(172)}": [guid(n) for n in range(173, 180)],
            f"ID ge {guid(172)} and ID lt {guid(175)}": [guid(n) for n in range(172, 175)],
            f"ID gt {guid(171)} and ID le {guid(176)}": [guid(n) for n in range(172, 177)],
            f"ID le {guid(173)}": [guid(n) for n in range(170, 174)],
            f"ID gt {guid(176)} and ID le {guid(174)}": [],
            f"(Title eq 'range') and (ID gt {guid(177)} and ID le 7fffffff-ffff-ffff-ffff-ffffffffffff)": [guid(178), guid(179)],
            f"ID gt {guid(170)} and Title eq 'range' and ID lt {guid(173)}": [guid(171), guid(172)],
        }
        for expression, expected in cases.items():
            indexed = self._all_ids(f"Tasks?$filter={expression}&$orderby=ID")
            evaluated = self._all_ids(f"Tasks?$filter={expression}")
            self.assertEqual(indexed, evaluated, expression)
            self.assertEqual([key for key in indexed if key in made], expected, expression)
            # Descending, as odatapy sorts it, and the largest key alone.
            backwards = self._all_ids(f"Tasks?$filter={expression}&$orderby=ID desc")
            self.assertEqual(backwards, evaluated[::-1], expression)
            largest = self.server.request("GET", f"Tasks?$filter={expression}&$orderby=ID desc&$top=1")
            self.assertEqual([t["ID"] for t in largest.json["value"]], evaluated[-1:], expression)
        whole = self._all_ids("Tasks")
        self.assertEqual(self._all_ids("Tasks?$orderby=ID desc"), whole[::-1])
        # Integer keys, by value.
        ids = [self.server.create("Customers", {"Name": f"range{n}"}).json["ID"] for n in range(6)]
        for expression, expected in {
            f"ID gt {ids[0]} and ID le {ids[3]}": ids[1:4],
            f"ID gt {ids[1]} and ID gt {ids[2]}": ids[3:],
            f"ID ge {ids[4]}": ids[4:],
        }.items():
            indexed = self._all_ids(f"Customers?$filter={expression}&$orderby=ID")
            self.assertEqual(indexed, self._all_ids(f"Customers?$filter={expression}"), expression)
            self.assertEqual([key for key in indexed if key in ids], expected, expression)

    def test_top_above_the_page_gives_one_page_and_a_token_and_max_page_size_is_ignored(self) -> None:
        for n in range(5):
            self.server.create("Tasks", {"ID": guid(60 + n), "Title": "top"})
        answer = self.server.request("GET", "Tasks?$filter=Title eq 'top'&$top=4")
        self.assertEqual(len(answer.json["value"]), 3)
        second = self.server.request("GET", answer.json["@odata.nextLink"])
        self.assertEqual([t["ID"] for t in second.json["value"]], [guid(63)])
        self.assertNotIn("@odata.nextLink", second.json)
        small = self.server.request("GET", "Tasks?$filter=Title eq 'top'", headers={"Prefer": "odata.maxpagesize=1"})
        self.assertEqual(len(small.json["value"]), 3)
        self.assertIsNone(small.header("Preference-Applied"))

    def test_a_failed_group_still_lists_its_undone_requests_as_201_and_200(self) -> None:
        kept = self.server.create("Tasks", {"ID": guid(70), "Title": "kept"})
        other = self.server.create("Tasks", {"ID": guid(71), "Title": "other"})
        batch = self.server.request("POST", "$batch", {"requests": [
            {"id": "1", "atomicityGroup": "g", "method": "POST", "url": "Tasks",
             "body": {"ID": guid(72), "Title": "new"}},
            {"id": "2", "atomicityGroup": "g", "method": "PATCH", "url": f"Tasks({guid(71)})",
             "headers": {"If-Match": other.header("ETag"), "Prefer": "return=representation"}, "body": {"Title": "changed"}},
            {"id": "3", "atomicityGroup": "g", "method": "PATCH", "url": f"Tasks({guid(70)})",
             "headers": {"If-Match": 'W/"1"'}, "body": {"Title": "stale"}},
            {"id": "4", "atomicityGroup": "g", "method": "POST", "url": "Tasks",
             "body": {"ID": guid(73), "Title": "after"}},
        ]})
        self.assertEqual(batch.status, 200)
        self.assertEqual([(r["id"], r["status"]) for r in batch.json["responses"]], [("1", 201), ("2", 200), ("3", 412)])
        self.assertEqual(self.server.request("GET", f"Tasks({guid(72)})").status, 404)
        self.assertEqual(self.server.request("GET", f"Tasks({guid(71)})").json["Title"], "other")
        self.assertEqual(self.server.request("GET", f"Tasks({guid(70)})").header("ETag"), kept.header("ETag"))

    def test_401_is_plain_text_403_and_404_are_error_objects_with_a_target(self) -> None:
        unauthorized = self.server.request("GET", "Tasks", auth=None)
        self.assertEqual(unauthorized.status, 401)
        self.assertTrue(unauthorized.header("Content-Type").startswith("text/plain"))
        self.assertEqual(unauthorized.text, "Unauthorized")
        self.assertEqual(unauthorized.header("WWW-Authenticate"), 'Basic realm="odata-fixture"')
        forbidden = self.server.create("Tasks", {"Title": "x"}, auth=("reader", "reader"))
        self.assertEqual(forbidden.json, {"error": {"code": "Forbidden",
                                                    "message": "The user 'reader' may only read.", "target": None}})
        missing = self.server.request("GET", f"Tasks({guid(999)})")
        self.assertEqual((missing.status, sorted(missing.json["error"])), (404, ["code", "message", "target"]))

    def test_metadata_is_public_and_lists_no_concurrency_properties(self) -> None:
        answer = self.server.request("GET", "$metadata", auth=None)
        self.assertEqual(answer.status, 200)
        root = ET.fromstring(answer.body)
        sets = list(root.iter(f"{EDM}EntitySet"))
        self.assertEqual(sorted(s.get("Name") for s in sets), ["Customers", "Orders", "Tasks"])
        for entity_set in sets:
            annotation = [a for a in entity_set.iter(f"{EDM}Annotation")
                          if a.get("Term") == "Org.OData.Core.V1.OptimisticConcurrency"]
            self.assertEqual(len(annotation), 1)
            self.assertEqual(list(annotation[0].find(f"{EDM}Collection")), [])
        self.assertEqual(self.server.request("GET", "", auth=None).status, 401)


if __name__ == "__main__":
    unittest.main()
