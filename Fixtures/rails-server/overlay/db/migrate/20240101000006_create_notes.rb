# Notes: every signed-in user reads them all, only the owner (and the users the owner
# granted) may change one (per-user authorization: 403 on another user's records).
class CreateNotes < ActiveRecord::Migration[6.1]
  def change
    create_table :notes do |t|
      t.string :owner, null: false
      t.string :text
      t.integer :lock_version, default: 0, null: false
      t.datetime :deleted_at, precision: 6
      t.timestamps precision: 6
    end
    add_index :notes, :updated_at
    create_table :note_grants do |t|
      t.string :owner, null: false
      t.string :grantee, null: false
      t.timestamps precision: 6
    end
    add_index :note_grants, [:owner, :grantee], unique: true
  end
end
