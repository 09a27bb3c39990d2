class CreateProducts < ActiveRecord::Migration[6.1]
  def change
    create_table :products do |t|
      t.string :name
      t.decimal :price, precision: 10, scale: 2
      t.integer :lock_version, default: 0, null: false
      t.datetime :deleted_at, precision: 6
      t.timestamps precision: 6
    end
    add_index :products, :updated_at
  end
end
