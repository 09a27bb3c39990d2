"""What both modes do alike: users, keys, server fields, references, the file, the script."""

from __future__ import annotations

import unittest
import xml.etree.ElementTree as ET

from .support import READER, Server, ServerCase, guid

EDM = "{http://docs.oasis-open.org/odata/ns/edm}"


class CommonFacts:
    """Mixed into one case per mode."""

    server: Server

    def test_reader_reads_and_gets_403_on_every_write(self) -> None:
        created = self.server.create("Tasks", {"ID": guid(100), "Title": "readable"})
        self.assertEqual(created.status, 201)
        self.assertEqual(self.server.request("GET", f"Tasks({guid(100)})", auth=READER).status, 200)
        refused = [
            self.server.create("Tasks", {"ID": guid(101), "Title": "x"}, auth=READER),
            self.server.request("PATCH", f"Tasks({guid(100)})", {"Title": "y"}, auth=READER,
                                headers={"If-Match": "*"}),
            self.server.request("DELETE", f"Tasks({guid(100)})", auth=READER, headers={"If-Match": "*"}),
        ]
        self.assertEqual([a.status for a in refused], [403, 403, 403])
        self.assertEqual(set(refused[0].json["error"]) >= {"code", "message"}, True)
        batch = self.server.request("POST", "$batch", {"requests": [
            {"id": "1", "method": "POST", "url": "Tasks", "body": {"ID": guid(102), "Title": "b"}},
        ]}, auth=READER)
        self.assertEqual(batch.status, 200)
        self.assertEqual(batch.json["responses"][0]["status"], 403)
        self.assertEqual(self.server.request("GET", f"Tasks({guid(102)})").status, 404)

    def test_wrong_password_is_401_with_a_challenge(self) -> None:
        answer = self.server.request("GET", "Tasks", auth=("writer", "nope"))
        self.assertEqual(answer.status, 401)
        self.assertIn("Basic", answer.header("WWW-Authenticate") or "")

    def test_server_assigns_int_keys_and_never_reuses_one(self) -> None:
        first = self.server.create("Customers", {"ID": 999, "Name": "Ann"})
        self.assertEqual(first.status, 201)
        key = first.json["ID"]
        self.assertNotEqual(key, 999)  # a key the client sends is ignored
        etag = first.header("ETag")
        self.assertEqual(self.server.request("DELETE", f"Customers({key})", headers={"If-Match": etag}).status, 204)
        second = self.server.create("Customers", {"Name": "Bob"})
        self.assertEqual(second.json["ID"], key + 1)
        order = self.server.create("Orders", {"CustomerID": second.json["ID"], "Product": "p", "Quantity": 2})
        self.assertEqual(order.status, 201)
        self.assertIsInstance(order.json["ID"], int)

    def test_a_task_without_id_gets_a_guid(self) -> None:
        answer = self.server.create("Tasks", {"Title": "no id"})
        self.assertEqual(answer.status, 201)
        self.assertRegex(answer.json["ID"], r"^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
        self.assertIn(f"Tasks({answer.json['ID']})", answer.header("Location"))

    def test_server_fields_ignore_what_the_client_sends_and_all_properties_come_back(self) -> None:
        answer = self.server.create("Tasks", {"ID": guid(110), "Title": "t", "CreatedAt": "2000-01-01T00:00:00Z",
                                              "ModifiedAt": "2000-01-01T00:00:00Z"})
        body = answer.json
        self.assertFalse(body["CreatedAt"].startswith("2000"))
        self.assertEqual(body["CreatedAt"], body["ModifiedAt"])
        self.assertEqual([k for k in body if not k.startswith("@")],
                         ["ID", "Title", "Done", "Priority", "Notes", "CreatedAt", "ModifiedAt"])
        self.assertIs(body["Done"], False)
        self.assertIsNone(body["Notes"])
        self.server.set_clock(1_800_000_000_123)
        updated = self.server.request("PUT", f"Tasks({guid(110)})", {"Title": "u"},
                                      headers={"If-Match": answer.header("ETag"), "Prefer": "return=representation"})
        self.assertEqual(updated.status, 200)
        self.assertEqual(updated.json["CreatedAt"], body["CreatedAt"])  # PUT keeps it
        self.assertEqual(updated.json["ModifiedAt"], "2027-01-15T08:00:00.123Z")

    def test_odatapy_leaves_nullability_and_unknown_properties_unchecked(self) -> None:
        no_title = self.server.create("Tasks", {"ID": guid(130), "Done": True})
        self.assertEqual(no_title.status, 201)
        self.assertIsNone(no_title.json["Title"])
        bogus = self.server.create("Tasks", {"ID": guid(131), "Title": "b", "Bogus": 1})
        self.assertEqual(bogus.status, 201)
        self.assertNotIn("Bogus", bogus.json)

    def test_put_to_a_missing_key_is_404_and_return_minimal_is_204_with_the_entity_id(self) -> None:
        self.assertEqual(self.server.request("PUT", f"Tasks({guid(140)})", {"Title": "up"},
                                             headers={"If-Match": "*"}).status, 404)
        minimal = self.server.create("Tasks", {"ID": guid(141), "Title": "m"}, headers={"Prefer": "return=minimal"})
        self.assertEqual(minimal.status, 204)
        self.assertTrue(minimal.header("OData-EntityId").endswith(f"/Tasks({guid(141)})"))
        self.assertEqual(minimal.header("Location"), minimal.header("OData-EntityId"))
        self.assertTrue(minimal.header("ETag").startswith('W/"'))
        self.assertEqual(minimal.header("Preference-Applied"), "return=minimal")

    def test_timestamps_drop_trailing_zeros(self) -> None:
        self.server.set_clock(1_800_000_000_990)
        answer = self.server.create("Tasks", {"ID": guid(150), "Title": "z"})
        self.assertEqual(answer.json["ModifiedAt"], "2027-01-15T08:00:00.99Z")

    def test_a_4_0_client_gets_odata_version_4_0(self) -> None:
        answer = self.server.request("GET", "Tasks", headers={"OData-MaxVersion": "4.0"})
        self.assertEqual(answer.header("OData-Version"), "4.0")
        self.assertEqual(self.server.request("GET", "Tasks").header("OData-Version"), "4.01")

    def test_an_order_naming_no_customer_is_400(self) -> None:
        answer = self.server.create("Orders", {"CustomerID": 424242, "Product": "p", "Quantity": 1})
        self.assertEqual(answer.status, 400)
        self.assertEqual(answer.json["error"]["target"], "CustomerID")

    def test_metadata_names_keys_types_computed_fields_and_the_reference(self) -> None:
        answer = self.server.request("GET", "$metadata")
        self.assertEqual(answer.status, 200)
        root = ET.fromstring(answer.body)
        types = {t.get("Name"): t for t in root.iter(f"{EDM}EntityType")}
        self.assertEqual(sorted(types), ["Customer", "Order", "Task"])
        keys = {name: t.find(f"{EDM}Key/{EDM}PropertyRef").get("Name") for name, t in types.items()}
        self.assertEqual(keys, {"Customer": "ID", "Order": "ID", "Task": "ID"})
        key_types = {name: [p.get("Type") for p in t.iter(f"{EDM}Property") if p.get("Name") == "ID"][0]
                     for name, t in types.items()}
        self.assertEqual(key_types, {"Customer": "Edm.Int32", "Order": "Edm.Int64", "Task": "Edm.Guid"})
        computed = sorted(p.get("Name") for p in types["Task"].iter(f"{EDM}Property")
                          if any(a.get("Term") == "Org.OData.Core.V1.Computed" for a in p))
        self.assertEqual(computed, ["CreatedAt", "ModifiedAt"])
        nav = types["Order"].find(f"{EDM}NavigationProperty")
        self.assertEqual((nav.get("Name"), nav.get("Type")), ("Customer", "Fixture.Customer"))
        constraint = nav.find(f"{EDM}ReferentialConstraint")
        self.assertEqual((constraint.get("Property"), constraint.get("ReferencedProperty")), ("CustomerID", "ID"))

    def test_data_and_counters_survive_a_restart_on_another_port(self) -> None:
        customer = self.server.create("Customers", {"Name": "Kept"})
        task = self.server.create("Tasks", {"ID": guid(120), "Title": "kept"})
        old_url = self.server.url
        self.server.stop()
        self.server.start()
        self.assertNotEqual(self.server.url, old_url)
        again = self.server.request("GET", f"Tasks({guid(120)})")
        self.assertEqual(again.status, 200)
        self.assertEqual(again.json["ModifiedAt"], task.json["ModifiedAt"])
        self.assertEqual(again.header("ETag"), task.header("ETag"))
        self.assertEqual(self.server.create("Customers", {"Name": "Next"}).json["ID"], customer.json["ID"] + 1)


class DeltaCommon(CommonFacts, ServerCase):
    mode = "delta"


class PlainCommon(CommonFacts, ServerCase):
    mode = "plain"


class ScriptFacts(unittest.TestCase):
    def test_a_state_dir_refuses_the_other_mode_and_bad_options(self) -> None:
        server = Server("delta")
        try:
            server.start(fresh=True)
            server.stop()
            refused = server.start_raw("--mode", "plain")
            self.assertEqual(refused.returncode, 1)
            self.assertIn("delta-mode service", refused.stderr)
            self.assertEqual(refused.stdout, "")
            self.assertEqual(server.start_raw("--mode", "sideways").returncode, 1)
            self.assertEqual(server.start_raw("--mode", "plain", "--fresh").returncode, 0)
        finally:
            server.remove()


if __name__ == "__main__":
    unittest.main()
