package dev.feedstore.examples.notes;

import dev.feedstore.client.Registration;
import java.awt.BorderLayout;
import java.awt.Color;
import java.awt.Component;
import java.awt.Dimension;
import java.awt.Font;
import java.awt.event.WindowAdapter;
import java.awt.event.WindowEvent;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.function.Consumer;
import javax.swing.BorderFactory;
import javax.swing.DefaultListCellRenderer;
import javax.swing.DefaultListModel;
import javax.swing.JButton;
import javax.swing.JFrame;
import javax.swing.JLabel;
import javax.swing.JList;
import javax.swing.JPanel;
import javax.swing.JScrollPane;
import javax.swing.JTextField;
import javax.swing.SwingUtilities;

/**
 * The notes window: the sync status and who you are at the top, every user's notes in the middle (pending ones in
 * grey, "not sent yet"), and a field to write a note at the bottom, with a button to delete the
 * selected note. It only draws {@link NotesView}s from the {@link NotesModel} and hands new notes
 * and deletions to it; all of it runs on the Swing event thread.
 */
final class NotesWindow {
  private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss").withZone(ZoneId.systemDefault());

  private final NotesModel model;
  private final JFrame frame;
  private final JPanel header = new JPanel(new BorderLayout());
  private final JLabel status = new JLabel();
  private final DefaultListModel<Note> notes = new DefaultListModel<>();
  private final JTextField input = new JTextField();
  private final Consumer<NotesView> shown;
  private Registration registration;

  /**
   * @param shown told every view the window has just drawn, on the event thread
   * @param onClose run when the window is closed
   */
  NotesWindow(NotesModel model, String server, Consumer<NotesView> shown, Runnable onClose) {
    this.model = model;
    this.shown = shown;
    this.frame = new JFrame("Notes - " + model.user() + " @ " + server);
    status.setFont(status.getFont().deriveFont(Font.BOLD, 14f));
    JLabel who = new JLabel(model.user() + " @ " + server);
    header.setBorder(BorderFactory.createEmptyBorder(6, 8, 6, 8));
    header.add(status, BorderLayout.WEST);
    header.add(who, BorderLayout.EAST);

    JList<Note> list = new JList<>(notes);
    list.setCellRenderer(new NoteRenderer(model));
    JButton add = new JButton("Add note");
    add.addActionListener(e -> addNote());
    input.addActionListener(e -> addNote());
    JButton delete = new JButton("Delete");
    delete.addActionListener(e -> list.getSelectedValuesList().forEach(note -> model.delete(note.id())));
    JPanel buttons = new JPanel(new BorderLayout(6, 0));
    buttons.add(add, BorderLayout.WEST);
    buttons.add(delete, BorderLayout.EAST);
    JPanel bottom = new JPanel(new BorderLayout(6, 0));
    bottom.setBorder(BorderFactory.createEmptyBorder(6, 6, 6, 6));
    bottom.add(input, BorderLayout.CENTER);
    bottom.add(buttons, BorderLayout.EAST);

    frame.getContentPane().add(header, BorderLayout.NORTH);
    frame.getContentPane().add(new JScrollPane(list), BorderLayout.CENTER);
    frame.getContentPane().add(bottom, BorderLayout.SOUTH);
    frame.setPreferredSize(new Dimension(460, 360));
    frame.setDefaultCloseOperation(JFrame.DISPOSE_ON_CLOSE);
    frame.addWindowListener(new WindowAdapter() {
      @Override
      public void windowClosed(WindowEvent e) {
        registration.close();
        onClose.run();
      }
    });
    frame.pack();
  }

  /** Shows the window at {@code (x, y)} and starts following the model. Call on the event thread. */
  void show(int x, int y) {
    frame.setLocation(x, y);
    registration = model.onChange(view -> SwingUtilities.invokeLater(() -> render(view)));
    frame.setVisible(true);
    input.requestFocusInWindow();
  }

  private void render(NotesView view) {
    status.setText(view.syncLabel());
    header.setBackground(switch (view.sync().state()) {
      case OFFLINE, REFUSED, STORAGE_FAULT -> new Color(0xF4C7C3);
      case SYNCING -> new Color(0xFCE8B2);
      case SYNCED -> view.syncLabel().equals("synced") ? new Color(0xB7E1CD) : new Color(0xFCE8B2);
    });
    header.setToolTipText(view.sync().lastError().orElse(null));
    notes.clear();
    view.notes().forEach(notes::addElement);
    shown.accept(view);
  }

  private void addNote() {
    String text = input.getText();
    if (!text.isBlank()) {
      model.add(text);
      input.setText("");
    }
  }

  /** One note: author, time, text; a pending note in grey with "not sent yet". */
  private static final class NoteRenderer extends DefaultListCellRenderer {
    private static final long serialVersionUID = 1L;
    private final transient NotesModel model;

    NoteRenderer(NotesModel model) {
      this.model = model;
    }

    @Override
    public Component getListCellRendererComponent(JList<?> list, Object value, int index, boolean selected,
        boolean focused) {
      Note note = (Note) value;
      String who = note.author().equals(model.user()) ? "me" : note.author().value();
      String text = who + "  " + TIME.format(Instant.ofEpochMilli(note.writtenAt())) + "   " + note.text()
          + (note.pending() ? "   (not sent yet)" : "");
      Component cell = super.getListCellRendererComponent(list, text, index, selected, focused);
      if (note.pending() && !selected) {
        cell.setForeground(Color.GRAY);
      }
      return cell;
    }
  }
}
