export default { displayName: '@workcell/mail', preset: '../../jest.preset.js' };
