class CreateCustomers < ActiveRecord::Migration[6.1]
  def change
    create_table :customers do |t|
      t.string :name
      t.string :email
      t.integer :lock_version, default: 0, null: false
      t.datetime :deleted_at, precision: 6
      t.timestamps precision: 6
    end
    add_index :customers, :updated_at
  end
end
