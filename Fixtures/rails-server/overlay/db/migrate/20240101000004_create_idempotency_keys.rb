class CreateIdempotencyKeys < ActiveRecord::Migration[6.1]
  def change
    create_table :idempotency_keys do |t|
      t.string :key, null: false
      t.string :resource, null: false
      t.integer :record_id, null: false
      t.timestamps
    end
    add_index :idempotency_keys, :key, unique: true
  end
end
