class CreateOrders < ActiveRecord::Migration[6.1]
  def change
    create_table :orders do |t|
      t.references :customer, null: false, foreign_key: true
      t.integer :quantity
      t.string :note
      t.integer :lock_version, default: 0, null: false
      t.datetime :deleted_at, precision: 6
      t.timestamps precision: 6
    end
    add_index :orders, :updated_at
  end
end
